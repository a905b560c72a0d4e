-- Numbers per project: a project's scan runs are numbered from 1, like its findings and items (0004), and that
-- number is the only one users see. The tables' ids stay the keys that rows reference; nothing shows them.

ALTER TABLE projects ADD COLUMN runs_numbered integer NOT NULL DEFAULT 0 CHECK (runs_numbered >= 0);
ALTER TABLE scan_runs ADD COLUMN number integer CHECK (number >= 1);

-- Existing runs keep their order: within a project, ids grew with each run (ingests of a project take turns).
UPDATE scan_runs r SET number = n.number
FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY id) AS number FROM scan_runs) n
WHERE n.id = r.id;
UPDATE projects p SET runs_numbered = coalesce((SELECT max(number) FROM scan_runs WHERE project_id = p.id), 0);

-- The history named runs by their ids: it names them by their numbers now, as every later event will.
UPDATE events e SET subject = 'run ' || r.number
FROM scan_runs r
WHERE e.kind = 'scan.ingested' AND e.project_id = r.project_id AND e.subject = 'run ' || r.id;
UPDATE events e SET reason = regexp_replace(e.reason, ': run [0-9]+', ': run ' || r.number)
FROM sources s JOIN scan_runs r ON r.project_id = s.project_id
WHERE e.kind = 'source.run' AND e.project_id = s.project_id AND e.subject = 'source ' || s.id
  AND e.reason ~ (': run ' || r.id || '( |$)');

ALTER TABLE scan_runs ALTER COLUMN number SET NOT NULL;
ALTER TABLE scan_runs ADD CONSTRAINT scan_runs_number_unique UNIQUE (project_id, number);

-- Every writer of runs (scans, SDK checks) gets the project's next number here, in its own transaction: the
-- project's row is locked until it commits, so two runs of a project never take one number.
CREATE FUNCTION barkeep_number_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE projects SET runs_numbered = runs_numbered + 1 WHERE id = NEW.project_id
    RETURNING runs_numbered INTO NEW.number;
    RETURN NEW;
END
$$;

CREATE TRIGGER scan_runs_number BEFORE INSERT ON scan_runs
    FOR EACH ROW EXECUTE FUNCTION barkeep_number_run();
