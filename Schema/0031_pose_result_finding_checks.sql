-- Deleting a project no longer does work per finding or per screen against `findings`. In `make bench`, deleting a
-- project of 100,000 findings and 1,000 screens ran for 7 and 9 minutes until cancelled, and one of 1,000,000 for 14
-- (in other runs each took seconds). The cause was the foreign key from pose_results to findings: for each finding
-- the deletion removed, it checked at the end of the statement that no other finding had the same key (a lookup in
-- `findings` by project and id) and that no pose result named it. Right after a large project is deleted, ANALYZE
-- can record `findings` as empty; PostgreSQL then plans that lookup as a walk of all the project's entries in an
-- index that leads with the project (findings_by_status_rule, findings_number_unique), the findings the same
-- statement deleted included: a deletion of N findings read about N² index entries. The same rules hold, enforced once per statement, as
-- migrations 0016, 0018 and 0019 did for a finding's runs, screen, pose and project:
--
-- * a pose result's finding is a finding of its project, when the result is written. The check locks the finding
--   FOR KEY SHARE until commit, as the foreign key did, so it cannot be deleted under the writer.
-- * a finding that a pose result names cannot be deleted. The check looks up each deleted finding's pose results by
--   pose_results_by_finding (one subquery per deleted row that only that index or a scan of pose_results can serve),
--   never `findings`. Deleting a project deletes the pose results that name its findings first (migration 0019).
--
-- The screens a project's deletion removes no longer clear screen_id one screen at a time (migration 0018's rule):
-- their project's findings are already deleted (migration 0019), so none is left to clear, and the UPDATE would
-- only have walked the deleted findings' index entries, once per screen.

ALTER TABLE pose_results DROP CONSTRAINT pose_results_project_id_finding_id_fkey;

CREATE FUNCTION barkeep_check_pose_result_findings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named bigint[];
    found integer;
BEGIN
    named := ARRAY(SELECT DISTINCT finding_id FROM written WHERE finding_id IS NOT NULL);
    IF cardinality(named) = 0 THEN
        RETURN NULL;
    END IF;
    -- A finding's id is unique across projects: lock each named one, then compare its project with the result's.
    SELECT count(*) INTO found
    FROM (SELECT 1 FROM findings f WHERE f.id = ANY (named) ORDER BY f.id FOR KEY SHARE) locked;
    IF found < cardinality(named) OR EXISTS (
        SELECT 1 FROM written w
        WHERE w.finding_id IS NOT NULL
          AND w.project_id IS DISTINCT FROM (SELECT f.project_id FROM findings f WHERE f.id = w.finding_id)
    ) THEN
        RAISE EXCEPTION 'a pose result names a finding that is not one of its project''s'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER pose_results_findings_inserted AFTER INSERT ON pose_results REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_pose_result_findings();
CREATE TRIGGER pose_results_findings_updated AFTER UPDATE ON pose_results REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_pose_result_findings();

-- What the foreign key's NO ACTION did. The LIMIT keeps the subquery apart from the join: it runs once per deleted
-- finding, by the index on the pose results' finding.
CREATE FUNCTION barkeep_check_named_findings_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM removed f
        CROSS JOIN LATERAL (
            SELECT 1 FROM pose_results r WHERE r.finding_id = f.id AND r.project_id = f.project_id LIMIT 1
        ) named
    ) THEN
        RAISE EXCEPTION 'a finding that a pose result names cannot be deleted'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER findings_deleted_pose_results AFTER DELETE ON findings REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_named_findings_deletion();

-- Migration 0018's rule, skipped for the screens of a deleted project.
CREATE OR REPLACE FUNCTION barkeep_unattribute_findings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM removed r JOIN projects p ON p.id = r.project_id) THEN
        RETURN NULL;
    END IF;
    UPDATE findings f SET screen_id = NULL
    FROM removed r WHERE f.project_id = r.project_id AND f.screen_id = r.id;
    RETURN NULL;
END $$;
