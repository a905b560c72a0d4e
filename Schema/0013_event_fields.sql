-- Events name what they are about in a way a program can use: the finding's number in its project, the screen the
-- event is about (for a finding, its owner at the time: a screen, a component, the `app` area or `unmapped`), and
-- the screens it counts for (a component's finding counts for every screen that uses the component). The event log
-- derives them from finding_id when it appends an event (EventLog in the store); this fills the events already
-- stored, as far as their findings are still known.

ALTER TABLE events ADD COLUMN finding_number integer CHECK (finding_number >= 1);
ALTER TABLE events ADD COLUMN screen text;
ALTER TABLE events ADD COLUMN screens text[];

-- A screen's own events name it first in their subject (`Inbox`, `Inbox title`, `Inbox step 2 (order)`, `Inbox P3`).
UPDATE events SET screen = split_part(subject, ' ', 1)
WHERE kind IN ('screen.added', 'screen.updated', 'screen.removed', 'screen.uses', 'step.state', 'pose.recorded');

-- The events of a finding still stored: its number, and the place that owns it now (a pose keeps its screen).
UPDATE events e SET finding_number = f.number, screen = coalesce(e.screen, o.key, 'unmapped')
FROM findings f LEFT JOIN screens o ON o.id = f.screen_id
WHERE f.id = e.finding_id;

-- The screens each counts for: a component's users, a screen or area itself, none for `unmapped` or a screen gone.
UPDATE events e SET screens = coalesce(
    (SELECT CASE WHEN s.kind = 'component'
                 THEN ARRAY(SELECT x.key FROM screen_uses u JOIN screens x ON x.id = u.screen_id
                            WHERE u.component_id = s.id ORDER BY x.key)
                 ELSE ARRAY[s.key::text] END
     FROM screens s WHERE s.project_id = e.project_id AND s.key = e.screen),
    '{}')
WHERE e.screen IS NOT NULL;

ALTER TABLE events ADD CONSTRAINT events_screens_with_screen CHECK ((screen IS NULL) = (screens IS NULL));
