-- A version of what STATUS shows of each project, changed in the same transaction as anything STATUS reads: a
-- daemon keeps STATUS replies encoded and answers from them while the version it reads is the one it built them at
-- (one primary-key lookup instead of reading the summaries). Several daemons may share the database: the version is
-- in it, and a write through any of them changes it when it commits.
--
-- A version is a random UUID, not a counter: only equality matters, and a random value also tells two databases
-- (or a project removed and created again under its name) apart. Writers of one project take its row's lock until
-- they commit, so a version read is never older than the data of a snapshot that sees it.
--
-- What STATUS reads, and so what changes the version: the project (name, SDK, deployment target, required poses),
-- its scan runs, screens and component uses, the summaries of its findings and of its screens' step states and pose
-- results (Schema/0014, which change with findings, steps and poses), the symbols and SDK checks of its project,
-- and, for every project, the checklist, the rules and the SDK symbols.
CREATE TABLE status_versions (
    project_id bigint PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    version    uuid NOT NULL DEFAULT gen_random_uuid()
);

-- Gives `projects` new versions, locking their rows in id order (two writers of several projects cannot deadlock
-- on them). A project without a row (being deleted) is skipped.
CREATE FUNCTION barkeep_status_changed(projects bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    WITH locked AS (
        SELECT v.project_id FROM status_versions v WHERE v.project_id = ANY (projects) ORDER BY v.project_id
        FOR NO KEY UPDATE
    )
    UPDATE status_versions v SET version = gen_random_uuid() FROM locked l WHERE v.project_id = l.project_id;
    $$;

-- Statement-level, over the transition tables: the projects of the rows a statement wrote.
CREATE FUNCTION barkeep_status_rows_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM barkeep_status_changed(ARRAY(SELECT DISTINCT project_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM barkeep_status_changed(ARRAY(SELECT DISTINCT project_id FROM old_rows));
    ELSE
        PERFORM barkeep_status_changed(
            ARRAY(SELECT project_id FROM new_rows UNION SELECT project_id FROM old_rows));
    END IF;
    RETURN NULL;
END
$$;

-- A table every project's STATUS reads (the checklist, rules, SDK symbols), or a TRUNCATE: every project.
CREATE FUNCTION barkeep_status_all_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM barkeep_status_changed(ARRAY(SELECT project_id FROM status_versions));
    RETURN NULL;
END
$$;

-- A project's own fields that STATUS shows (not its numbering counters, which every new finding moves).
CREATE FUNCTION barkeep_status_project_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM barkeep_status_changed(ARRAY[NEW.id]);
    RETURN NULL;
END
$$;

CREATE FUNCTION barkeep_status_project_created() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO status_versions (project_id) SELECT id FROM new_rows ORDER BY id;
    RETURN NULL;
END
$$;

CREATE TRIGGER projects_status_insert AFTER INSERT ON projects REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_status_project_created();
CREATE TRIGGER projects_status_update AFTER UPDATE OF name, sdk, deployment_target, required_poses ON projects
    FOR EACH ROW
    WHEN ((OLD.name, OLD.sdk, OLD.deployment_target, OLD.required_poses)
          IS DISTINCT FROM (NEW.name, NEW.sdk, NEW.deployment_target, NEW.required_poses))
    EXECUTE FUNCTION barkeep_status_project_changed();

DO $$
DECLARE
    target text;
BEGIN
    FOREACH target IN ARRAY ARRAY['scan_runs', 'screens', 'screen_uses', 'finding_summaries', 'screen_progress',
                                  'project_symbols', 'sdk_checks'] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION barkeep_status_rows_changed()',
                       target || '_status_insert', target);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION barkeep_status_rows_changed()',
                       target || '_status_update', target);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION barkeep_status_rows_changed()',
                       target || '_status_delete', target);
        EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT '
                       'EXECUTE FUNCTION barkeep_status_all_changed()', target || '_status_truncate', target);
    END LOOP;
    FOREACH target IN ARRAY ARRAY['checklist_steps', 'rules', 'sdk_symbols'] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT '
                       'EXECUTE FUNCTION barkeep_status_all_changed()', target || '_status_change', target);
    END LOOP;
END
$$;

-- An existing database's projects, each with a first version.
INSERT INTO status_versions (project_id) SELECT id FROM projects ORDER BY id;
