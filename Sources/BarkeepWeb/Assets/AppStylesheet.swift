/// `app.css`: light and dark from the system setting (text and backgrounds at WCAG AA contrast or better in both),
/// a grid that falls to one column below 40rem, wide tables in a labelled scrolling region. Pages carry classes,
/// never a `style` attribute.
enum AppStylesheet {
    /// The stylesheet's text.
    static let text = #"""
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1a1a1a; --muted: #4d4d4d; --line: #c8c8c8; --panel: #f4f5f7;
          --link: #0b57b0; --focus: #0b57b0;
          --ok: #1b5e20; --bad: #b71c1c; --warn: #7a4f00; --na: #455a64;
          --critical: #b71c1c; --high: #a33a00; --medium: #7a4f00; --low: #2e5d8a; --info: #4d4d4d;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #121417; --fg: #eceff1; --muted: #b8c0c6; --line: #3a4046; --panel: #1c2024;
            --link: #8ab4f8; --focus: #8ab4f8;
            --ok: #81c995; --bad: #f28b82; --warn: #fdd663; --na: #b0bec5;
            --critical: #f28b82; --high: #fcad70; --medium: #fdd663; --low: #8ab4f8; --info: #b8c0c6;
          }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
        a { color: var(--link); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
        [tabindex]:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -999rem; }
        .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 2; }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
          border-bottom: 1px solid var(--line); background: var(--panel); }
        header nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
        header .who { margin-left: auto; display: flex; gap: .75rem; align-items: center; color: var(--muted); }
        header form { margin: 0; }
        main { padding: 1rem; max-width: 90rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.6rem; margin: .25rem 0 1rem; }
        h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
        .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; }
        .card h2 { margin-top: 0; font-size: 1.05rem; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
        .scroll { overflow-x: auto; max-width: 100%; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        caption { text-align: left; font-weight: 600; padding: .25rem 0; }
        th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { background: var(--panel); white-space: nowrap; }
        th button { font: inherit; font-weight: 600; background: none; border: 0; color: inherit; cursor: pointer;
          padding: 0; }
        th[aria-sort="ascending"] button::after { content: " ▲"; }
        th[aria-sort="descending"] button::after { content: " ▼"; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        pre, code { font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: .9rem; }
        pre.snippet { background: var(--panel); border: 1px solid var(--line); padding: .5rem; overflow-x: auto;
          white-space: pre-wrap; word-break: break-word; margin: 0; }
        .ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); } .na { color: var(--na); }
        .sev-critical { color: var(--critical); font-weight: 700; } .sev-high { color: var(--high); font-weight: 600; }
        .sev-medium { color: var(--medium); } .sev-low { color: var(--low); } .sev-info { color: var(--info); }
        td.pose { white-space: nowrap; }
        td.pose small, .meta { display: block; color: var(--muted); font-size: .8rem; }
        span.what { display: block; }
        img.screenshot { display: block; max-width: 12rem; max-height: 16rem; width: auto; height: auto;
          border: 1px solid var(--line); margin-top: .25rem; }
        td.pose img.screenshot { max-width: 4rem; max-height: 5rem; }
        svg#burndown { max-width: 100%; height: auto; color: var(--fg); }
        svg#burndown text { fill: currentColor; }
        form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0 1rem; }
        form.filters label, form.stack label { display: flex; flex-direction: column; font-size: .9rem; }
        form.stack { display: grid; gap: .75rem; max-width: 32rem; }
        input, select, textarea, button { font: inherit; color: inherit; background: var(--bg);
          border: 1px solid var(--muted); border-radius: 4px; padding: .3rem .5rem; }
        button { background: var(--panel); cursor: pointer; }
        button.primary { background: var(--link); color: var(--bg); border-color: var(--link); }
        ol.timeline { list-style: none; padding: 0; margin: 0; }
        ol.timeline li { padding: .35rem 0; border-bottom: 1px solid var(--line); }
        ul.legend { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; }
        #live { color: var(--muted); font-size: .85rem; margin: 0; }
        .notice { border-left: 4px solid var(--bad); padding: .5rem .75rem; background: var(--panel); }
        .next { margin-top: 1rem; }
        [hidden] { display: none !important; }
        @media (max-width: 40rem) {
          .grid { grid-template-columns: 1fr; }
          header .who { margin-left: 0; }
          main { padding: .75rem; }
          dl.facts { grid-template-columns: 1fr; }
        }
        """#
}
