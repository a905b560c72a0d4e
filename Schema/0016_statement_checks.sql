-- Four foreign keys that a large sync checked one row at a time are checked once per statement instead. A first
-- import of 100,000 findings ran 200,000 row-level checks of findings' first and last runs and 200,000 of their
-- events' project and finding, each a query of its own: about half the import's time in PostgreSQL. The same rules
-- hold, enforced by statement-level triggers that read the statement's rows as a set (one join, however many rows):
--
-- * a finding's first and last run are runs of its project;
-- * an event's project and finding exist when it is written;
-- * a finding or project deleted leaves its events, with finding_id or project_id NULL (was ON DELETE SET NULL).
--
-- Runs are deleted only with their project (which deletes its findings too); deleting a run that a finding of a
-- project still there names is refused, as the foreign key did.

ALTER TABLE findings
    DROP CONSTRAINT findings_project_id_first_seen_run_fkey,
    DROP CONSTRAINT findings_project_id_last_seen_run_fkey;
ALTER TABLE events
    DROP CONSTRAINT events_project_id_fkey,
    DROP CONSTRAINT events_finding_id_fkey;

CREATE FUNCTION barkeep_check_finding_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM written w
        WHERE (w.first_seen_run IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM scan_runs r WHERE r.project_id = w.project_id AND r.id = w.first_seen_run))
           OR (w.last_seen_run IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM scan_runs r WHERE r.project_id = w.project_id AND r.id = w.last_seen_run))
    ) THEN
        RAISE EXCEPTION 'a finding names a run that is not one of its project''s' USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER findings_runs_inserted AFTER INSERT ON findings REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_finding_runs();
CREATE TRIGGER findings_runs_updated AFTER UPDATE ON findings REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_finding_runs();

CREATE FUNCTION barkeep_check_run_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM removed o
        JOIN findings f ON f.project_id = o.project_id AND (f.first_seen_run = o.id OR f.last_seen_run = o.id)
    ) THEN
        RAISE EXCEPTION 'a finding still names the run' USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER scan_runs_deleted AFTER DELETE ON scan_runs REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_run_deletion();

CREATE FUNCTION barkeep_check_event_references() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM appended e
        WHERE (e.project_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = e.project_id))
           OR (e.finding_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.id = e.finding_id))
    ) THEN
        RAISE EXCEPTION 'an event names a project or finding that does not exist'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER events_references AFTER INSERT ON events REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_event_references();

-- What ON DELETE SET NULL did: the events of the deleted rows stay, no longer pointing at them. The column to clear
-- (finding_id or project_id) is the trigger's argument.
CREATE FUNCTION barkeep_forget_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('UPDATE events SET %1$I = NULL WHERE %1$I IN (SELECT id FROM removed)', TG_ARGV[0]);
    RETURN NULL;
END $$;

CREATE TRIGGER findings_deleted_events AFTER DELETE ON findings REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_forget_events('finding_id');
CREATE TRIGGER projects_deleted_events AFTER DELETE ON projects REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_forget_events('project_id');
