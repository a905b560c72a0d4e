-- Migration 0031's checks, each made to read what it checks once, and the one rule of the dropped foreign key that
-- 0031 left out. A review of 0031 found all three; a finding's id is unique across projects, which both lookups now
-- rely on:
--
-- * Deleting findings: 0031 looked each deleted finding's pose results up by finding and project. That condition
--   can also be served by pose_results_by_project (its first column the project), as a walk of all the project's
--   pose results for each deleted finding: on statistics that say pose_results is empty, deleting a project of
--   2,000 findings and 3,200 pose results read 6,410,400 entries of that index (QueryPlanTests). The lookup now
--   names the finding alone, which only pose_results_by_finding or a scan of pose_results can serve.
-- * Writing pose results: 0031 read each written result's finding a second time, by id alone, once per row, which
--   findings_project_id_id_key (project, id) can serve as a walk of the whole index. The rows the check locks now
--   give their projects, read once.
-- * A finding that a pose result names stays in its project: an UPDATE moving it to another is refused, as the
--   foreign key refused a change of its key (project, id). No writer moves a finding; checked row by row, only when
--   the project changes, as migration 0019 checks a moved finding's new project.

CREATE OR REPLACE FUNCTION barkeep_check_pose_result_findings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named bigint[];
    found bigint[];
    owners bigint[];
BEGIN
    named := ARRAY(SELECT DISTINCT finding_id FROM written WHERE finding_id IS NOT NULL);
    IF cardinality(named) = 0 THEN
        RETURN NULL;
    END IF;
    -- Each named finding, locked until commit as the foreign key locked it, with its project.
    SELECT coalesce(array_agg(l.id), '{}'), coalesce(array_agg(l.project_id), '{}') INTO found, owners
    FROM (SELECT f.id, f.project_id FROM findings f WHERE f.id = ANY (named) ORDER BY f.id FOR KEY SHARE) l;
    IF cardinality(found) < cardinality(named) OR EXISTS (
        SELECT 1 FROM written w JOIN unnest(found, owners) AS l (id, project_id) ON l.id = w.finding_id
        WHERE l.project_id <> w.project_id
    ) THEN
        RAISE EXCEPTION 'a pose result names a finding that is not one of its project''s'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION barkeep_check_named_findings_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM removed f
        CROSS JOIN LATERAL (SELECT 1 FROM pose_results r WHERE r.finding_id = f.id LIMIT 1) named
    ) THEN
        RAISE EXCEPTION 'a finding that a pose result names cannot be deleted'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION barkeep_check_moved_named_finding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM pose_results r WHERE r.finding_id = OLD.id) THEN
        RAISE EXCEPTION 'a finding that a pose result names cannot move to another project'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER findings_project_moved_pose_results AFTER UPDATE OF project_id ON findings
    FOR EACH ROW WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION barkeep_check_moved_named_finding();
