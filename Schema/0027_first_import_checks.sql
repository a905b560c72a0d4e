-- Two costs of a first import's COPY that grew with its rows, for the same rules and the same reads.
--
-- 1. The statement-level checks of migrations 0016 (a finding's runs) and 0018 (its screen and pose) looked up the
--    references of every row the statement wrote: for a first import of 100,000 findings, 200,000 lookups of
--    scan_runs for one run, and one lookup of screens per attributed finding. The statement's rows are now reduced
--    to their distinct references first (one for a first import's runs, one per screen), each looked up once. The
--    rules are unchanged.
--
-- 2. Two indexes of migration 0004 are replaced by one. findings_by_status_rule carried every finding's id as an
--    included column, for index-only reads of the dashboard's counts that migration 0014's summaries answer since,
--    and an index with an included column cannot deduplicate its keys: one entry per finding (6.5 MB for 100,000)
--    where a project has a few hundred distinct keys. findings_by_screen_severity is widened by the rule and takes
--    over its reads: a screen's findings (its prefix, as before); a rule or a status over the whole project (the
--    filter language's check of a rule, a status few findings hold), whose conditions the index reads in its own
--    entries, deduplicated (0.8 MB for the same findings). A COPY of 100,000 findings writes one index fewer.

CREATE OR REPLACE FUNCTION barkeep_check_finding_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT project_id, first_seen_run, last_seen_run FROM written) w
        WHERE (w.first_seen_run IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM scan_runs r WHERE r.project_id = w.project_id AND r.id = w.first_seen_run))
           OR (w.last_seen_run IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM scan_runs r WHERE r.project_id = w.project_id AND r.id = w.last_seen_run))
    ) THEN
        RAISE EXCEPTION 'a finding names a run that is not one of its project''s' USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION barkeep_check_finding_references() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT project_id, screen_id, created_by_pose FROM written) w
        WHERE (w.screen_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM screens s WHERE s.project_id = w.project_id AND s.id = w.screen_id))
           OR (w.created_by_pose IS NOT NULL AND NOT EXISTS (SELECT 1 FROM poses p WHERE p.id = w.created_by_pose))
    ) THEN
        RAISE EXCEPTION 'a finding names a screen or pose that is not one of its project''s'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

DROP INDEX findings_by_status_rule;
DROP INDEX findings_by_screen_severity;
CREATE INDEX findings_by_screen ON findings (project_id, screen_id, status, severity, rule);
