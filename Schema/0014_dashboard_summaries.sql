-- The dashboard's summary, kept up to date by triggers in the same transactions that change findings, step states
-- and pose results, so that STATUS reads about one row per screen instead of recomputing from every finding.
-- `barkeepd --verify-summaries` compares what is stored with barkeep_finding_summary_rows and
-- barkeep_screen_progress_rows, the same recomputation that fills the tables below.

-- Findings counted by what the dashboard tells apart: the screen (0: none, the unmapped bucket), status, severity,
-- the checklist step the finding's rule evidences (0: none), the step of an item added by hand (0: none, or not an
-- item) and, for a blocked finding, the symbols it waits for (empty otherwise).
CREATE TABLE finding_summaries (
    project_id    bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    screen_id     bigint NOT NULL,
    status        text NOT NULL,
    severity      text NOT NULL,
    rule_step     smallint NOT NULL,
    item_step     smallint NOT NULL,
    needs_symbols text[] NOT NULL,
    findings      integer NOT NULL,
    PRIMARY KEY (project_id, screen_id, status, severity, rule_step, item_step, needs_symbols)
);

-- The summary key of one finding: one home for it, used by the triggers and by the recomputation.
CREATE FUNCTION barkeep_finding_summary_key(
    of_screen bigint, of_status text, of_severity text, of_rule text, of_source text, of_step smallint,
    of_symbols text[]
) RETURNS TABLE (screen_id bigint, status text, severity text, rule_step smallint, item_step smallint,
                 needs_symbols text[])
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT coalesce(of_screen, 0), of_status, of_severity,
           coalesce((SELECT r.step FROM rules r WHERE r.id = of_rule), 0)::smallint,
           (CASE WHEN of_source = 'manual' THEN coalesce(of_step, 0) ELSE 0 END)::smallint,
           CASE WHEN of_status = 'blocked' THEN of_symbols ELSE '{}'::text[] END
    $$;

-- The summary of one project recomputed from its findings.
CREATE FUNCTION barkeep_finding_summary_rows(project bigint)
RETURNS TABLE (screen_id bigint, status text, severity text, rule_step smallint, item_step smallint,
               needs_symbols text[], findings integer)
    LANGUAGE sql STABLE
    AS $$
    SELECT k.screen_id, k.status, k.severity, k.rule_step, k.item_step, k.needs_symbols, count(*)::integer
    FROM findings f,
         LATERAL barkeep_finding_summary_key(f.screen_id, f.status, f.severity, f.rule, f.source, f.step,
                                             f.needs_symbols) k
    WHERE f.project_id = project
    GROUP BY 1, 2, 3, 4, 5, 6
    $$;

-- One change of the summary: `findings` more (or fewer, when negative) findings under a key.
CREATE TYPE barkeep_finding_summary_change AS (
    project_id bigint, screen_id bigint, status text, severity text, rule_step smallint, item_step smallint,
    needs_symbols text[], findings integer
);

-- Applies changes in key order (so two transactions lock summary rows in the same order), skipping projects being
-- deleted, and drops the keys that no finding has any more.
CREATE FUNCTION barkeep_finding_summaries_change(changes barkeep_finding_summary_change[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO finding_summaries AS s
    SELECT c.* FROM unnest(changes) c
    WHERE c.findings <> 0 AND EXISTS (SELECT 1 FROM projects p WHERE p.id = c.project_id)
    ORDER BY c.project_id, c.screen_id, c.status, c.severity, c.rule_step, c.item_step, c.needs_symbols
    ON CONFLICT (project_id, screen_id, status, severity, rule_step, item_step, needs_symbols)
    DO UPDATE SET findings = s.findings + excluded.findings;
    DELETE FROM finding_summaries s USING unnest(changes) c
    WHERE s.findings = 0 AND s.project_id = c.project_id AND s.screen_id = c.screen_id AND s.status = c.status
      AND s.severity = c.severity AND s.rule_step = c.rule_step AND s.item_step = c.item_step
      AND s.needs_symbols = c.needs_symbols;
    $$;

-- Statement-level, over the transition tables: a scan that writes 100,000 findings changes the summary once.
CREATE FUNCTION barkeep_findings_summarize() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    changes barkeep_finding_summary_change[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        changes := ARRAY(
            SELECT ROW(f.project_id, k.*, count(*))::barkeep_finding_summary_change
            FROM new_rows f,
                 LATERAL barkeep_finding_summary_key(f.screen_id, f.status, f.severity, f.rule, f.source, f.step,
                                                     f.needs_symbols) k
            GROUP BY f.project_id, k.screen_id, k.status, k.severity, k.rule_step, k.item_step, k.needs_symbols);
    ELSIF TG_OP = 'DELETE' THEN
        changes := ARRAY(
            SELECT ROW(f.project_id, k.*, -count(*))::barkeep_finding_summary_change
            FROM old_rows f,
                 LATERAL barkeep_finding_summary_key(f.screen_id, f.status, f.severity, f.rule, f.source, f.step,
                                                     f.needs_symbols) k
            GROUP BY f.project_id, k.screen_id, k.status, k.severity, k.rule_step, k.item_step, k.needs_symbols);
    ELSE
        changes := ARRAY(
            SELECT ROW(f.project_id, k.*, sum(f.sign))::barkeep_finding_summary_change
            FROM (SELECT project_id, screen_id, status, severity, rule, source, step, needs_symbols, 1 AS sign
                  FROM new_rows
                  UNION ALL
                  SELECT project_id, screen_id, status, severity, rule, source, step, needs_symbols, -1
                  FROM old_rows) f,
                 LATERAL barkeep_finding_summary_key(f.screen_id, f.status, f.severity, f.rule, f.source, f.step,
                                                     f.needs_symbols) k
            GROUP BY f.project_id, k.screen_id, k.status, k.severity, k.rule_step, k.item_step, k.needs_symbols
            HAVING sum(f.sign) <> 0);
    END IF;
    IF cardinality(changes) > 0 THEN
        PERFORM barkeep_finding_summaries_change(changes);
    END IF;
    RETURN NULL;
END
$$;

-- Each screen's recorded step states (`3=done`) and latest pose results (`P1=passed`), in order; a screen with
-- neither has no row.
CREATE TABLE screen_progress (
    project_id   bigint NOT NULL,
    screen_id    bigint PRIMARY KEY,
    step_states  text[] NOT NULL,
    latest_poses text[] NOT NULL,
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE CASCADE
);
CREATE INDEX screen_progress_by_project ON screen_progress (project_id);

-- The progress of `screens` (those that still exist and have any) recomputed from step states and pose results.
CREATE FUNCTION barkeep_screen_progress_rows(screen_ids bigint[])
RETURNS TABLE (project_id bigint, screen_id bigint, step_states text[], latest_poses text[])
    LANGUAGE sql STABLE
    AS $$
    SELECT * FROM (
        SELECT s.project_id, s.id,
               ARRAY(SELECT t.step || '=' || t.state FROM step_states t WHERE t.screen_id = s.id ORDER BY t.step),
               ARRAY(SELECT p.pose || '=' || p.result
                     FROM (SELECT DISTINCT ON (r.pose) r.pose, r.result FROM pose_results r
                           WHERE r.screen_id = s.id ORDER BY r.pose, r.id DESC) p
                     ORDER BY p.pose)
        FROM screens s WHERE s.id = ANY (screen_ids)
    ) r (project_id, screen_id, step_states, latest_poses)
    WHERE cardinality(r.step_states) > 0 OR cardinality(r.latest_poses) > 0
    $$;

-- Recomputes the progress of `screens` after their rows were locked, so that a concurrent writer's committed rows
-- are seen (READ COMMITTED takes a new snapshot for each statement).
CREATE FUNCTION barkeep_screen_progress_refresh(screen_ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM screens s WHERE s.id = ANY (screen_ids) ORDER BY s.id FOR NO KEY UPDATE;
    DELETE FROM screen_progress p WHERE p.screen_id = ANY (screen_ids)
        AND NOT EXISTS (SELECT 1 FROM barkeep_screen_progress_rows(ARRAY[p.screen_id]));
    INSERT INTO screen_progress AS p SELECT * FROM barkeep_screen_progress_rows(screen_ids) ORDER BY 2
    ON CONFLICT (screen_id) DO UPDATE SET step_states = excluded.step_states, latest_poses = excluded.latest_poses;
END
$$;

CREATE FUNCTION barkeep_progress_summarize() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM barkeep_screen_progress_refresh(ARRAY(SELECT DISTINCT screen_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM barkeep_screen_progress_refresh(ARRAY(SELECT DISTINCT screen_id FROM old_rows));
    ELSE
        PERFORM barkeep_screen_progress_refresh(
            ARRAY(SELECT screen_id FROM new_rows UNION SELECT screen_id FROM old_rows));
    END IF;
    RETURN NULL;
END
$$;

-- On each table, one trigger per kind of write (a trigger with transition tables serves one event).
DO $$
DECLARE
    target text[];
BEGIN
    FOREACH target SLICE 1 IN ARRAY ARRAY[['findings', 'barkeep_findings_summarize'],
                                          ['step_states', 'barkeep_progress_summarize'],
                                          ['pose_results', 'barkeep_progress_summarize']] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', target[1] || '_summarize_insert', target[1],
                       target[2]);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', target[1] || '_summarize_update', target[1],
                       target[2]);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %I()', target[1] || '_summarize_delete', target[1],
                       target[2]);
    END LOOP;
END
$$;

-- An existing database's summaries, filled once.
INSERT INTO finding_summaries
SELECT p.id, r.* FROM projects p, LATERAL barkeep_finding_summary_rows(p.id) r;
INSERT INTO screen_progress SELECT * FROM barkeep_screen_progress_rows(ARRAY(SELECT id FROM screens));
