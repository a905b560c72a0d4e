-- A finding's screen and the pose that created it are checked once per statement instead of one row at a time. A
-- first import of 100,000 findings queued 200,000 row-level checks for these two foreign keys (each runs for every
-- row, even when the column is NULL): 0.4-0.5 s of the INSERT (EXPLAIN ANALYZE, 2 loaded cores). The same rules
-- hold, enforced by statement-level triggers that read the statement's rows as a set, as migration 0016 does for a
-- finding's runs:
--
-- * a finding's screen is a screen of its project;
-- * a finding created by a pose names a pose that exists;
-- * a screen deleted leaves its findings, with screen_id NULL (was ON DELETE SET NULL (screen_id)).
--
-- Row-level foreign keys lock the screen they check until commit; these checks do not. Every writer that gives a
-- finding a screen (a sync, an item, a pose's item, screen attribution) and every deletion of a screen holds the
-- project's sync lock (ScanStore.lockProject), so no screen can be deleted between the check and the commit. Poses
-- are the fixed list of migration 0003, never deleted.
--
-- The project's own foreign key stays row-level: it deletes a project's findings with the project (ON DELETE
-- CASCADE) in the order the other cascades expect.

ALTER TABLE findings
    DROP CONSTRAINT findings_project_id_screen_id_fkey,
    DROP CONSTRAINT findings_created_by_pose_fkey;

CREATE FUNCTION barkeep_check_finding_references() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM written w
        WHERE (w.screen_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM screens s WHERE s.project_id = w.project_id AND s.id = w.screen_id))
           OR (w.created_by_pose IS NOT NULL AND NOT EXISTS (SELECT 1 FROM poses p WHERE p.id = w.created_by_pose))
    ) THEN
        RAISE EXCEPTION 'a finding names a screen or pose that is not one of its project''s'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER findings_references_inserted AFTER INSERT ON findings REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_finding_references();
CREATE TRIGGER findings_references_updated AFTER UPDATE ON findings REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_finding_references();

-- What ON DELETE SET NULL (screen_id) did.
CREATE FUNCTION barkeep_unattribute_findings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE findings f SET screen_id = NULL
    FROM removed r WHERE f.project_id = r.project_id AND f.screen_id = r.id;
    RETURN NULL;
END $$;

CREATE TRIGGER screens_deleted_findings AFTER DELETE ON screens REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_unattribute_findings();
