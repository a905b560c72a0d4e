-- The dashboard and the readiness report.

-- The app lifecycle the scanner detected (duo_scan's project.lifecycle: scene, swiftui-app, …), for the report.
ALTER TABLE scan_runs ADD COLUMN lifecycle text CHECK (lifecycle <> '');

-- Each finding's number in its project, given once at creation and never reused: the report's DUO-01 is number 1,
-- so an item keeps its id from one report to the next.
ALTER TABLE projects ADD COLUMN findings_numbered integer NOT NULL DEFAULT 0 CHECK (findings_numbered >= 0);
ALTER TABLE findings ADD COLUMN number integer CHECK (number >= 1);
UPDATE findings f SET number = n.number
FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY id) AS number FROM findings) n
WHERE n.id = f.id;
UPDATE projects p SET findings_numbered = coalesce((SELECT max(number) FROM findings WHERE project_id = p.id), 0);
ALTER TABLE findings ALTER COLUMN number SET NOT NULL;
ALTER TABLE findings ADD CONSTRAINT findings_number_unique UNIQUE (project_id, number);

-- The dashboard reads these from the indexes alone, whatever the number of findings: counts by screen, status and
-- severity; open findings of the rules that evidence a checklist step (by status, then rule). Each supersedes an
-- index that was its prefix, so a scan writes no more index entries than before.
CREATE INDEX findings_by_screen_severity ON findings (project_id, screen_id, status, severity);
DROP INDEX findings_by_screen;
CREATE INDEX findings_by_status_rule ON findings (project_id, status, rule, screen_id) INCLUDE (id);
DROP INDEX findings_by_status;
-- Items added by hand, by screen and step: few, and never written by a scan.
CREATE INDEX findings_items ON findings (project_id, screen_id, step, status) INCLUDE (id) WHERE source = 'manual';

-- The latest result of each pose of each screen of a project.
CREATE INDEX pose_results_by_project ON pose_results (project_id, screen_id, pose, id DESC) INCLUDE (result);
CREATE INDEX step_states_by_project ON step_states (project_id, screen_id, step) INCLUDE (state);
