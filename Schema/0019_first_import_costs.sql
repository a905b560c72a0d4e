-- Two costs of a first import that grew with its rows, each replaced by set-based work with the same rules.
--
-- 1. The dashboard summary's trigger (migration 0014) computed the summary key of every row of a statement, each
--    with a lookup of its rule's checklist step: 100,000 lookups for a first import of 100,000 findings, 0.4-1.1 s
--    of its INSERT (EXPLAIN ANALYZE, 2 loaded cores). It now groups the statement's rows once by the columns the
--    key reads (a scan's findings fall into a few groups per screen and rule), computes each group's key once, and
--    sums the groups that share a key. The key's one home, barkeep_finding_summary_key, is unchanged.
--
-- 2. The project's foreign key on findings ran a row-level check for each of the 100,000 rows (0.44-0.87 s of the
--    same INSERT). The same rules hold, enforced once per statement:
--
--    * a finding's project exists when the finding is written. The check locks the project's row FOR KEY SHARE
--      until commit, as the foreign key did, so the project cannot be deleted under a writer. An UPDATE is checked
--      only when it changes a finding's project (as the foreign key), row by row: no writer does.
--    * deleting a project deletes its findings (was ON DELETE CASCADE). The deletion runs once the cascades of the
--      project's row have deleted its runs and screens, and before the triggers those cascades queued: migration
--      0016's check on deleted runs then finds no finding naming them. The pose results that name one of the
--      findings are deleted first: their foreign key to findings would refuse the deletion, and the screens'
--      cascade that deletes them runs later.

CREATE OR REPLACE FUNCTION barkeep_findings_summarize() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    columns constant text := 'project_id, screen_id, status, severity, rule, source, step, needs_symbols';
    signed text;
    changes barkeep_finding_summary_change[];
BEGIN
    -- The statement's rows, each counted once: +1 as written, -1 as an UPDATE or DELETE found it.
    signed := CASE TG_OP
        WHEN 'INSERT' THEN format('SELECT %s, 1 AS sign FROM new_rows', columns)
        WHEN 'DELETE' THEN format('SELECT %s, -1 AS sign FROM old_rows', columns)
        ELSE format('SELECT %1$s, 1 AS sign FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows', columns)
    END;
    -- Grouped by the columns the key reads, the key computed once per group, the groups sharing a key summed.
    EXECUTE format(
        'SELECT ARRAY('
        '    SELECT ROW(g.project_id, k.*, sum(g.findings))::barkeep_finding_summary_change'
        '    FROM (SELECT %1$s, sum(sign) AS findings FROM (%2$s) f GROUP BY %1$s) g,'
        '         LATERAL barkeep_finding_summary_key(g.screen_id, g.status, g.severity, g.rule, g.source, g.step,'
        '                                             g.needs_symbols) k'
        '    GROUP BY g.project_id, k.screen_id, k.status, k.severity, k.rule_step, k.item_step, k.needs_symbols'
        '    HAVING sum(g.findings) <> 0)', columns, signed)
    INTO changes;
    IF cardinality(changes) > 0 THEN
        PERFORM barkeep_finding_summaries_change(changes);
    END IF;
    RETURN NULL;
END
$$;

ALTER TABLE findings DROP CONSTRAINT findings_project_id_fkey;

-- The projects a statement's findings name exist, and stay until this transaction ends.
CREATE FUNCTION barkeep_check_finding_projects() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named bigint[];
    found integer;
BEGIN
    IF TG_LEVEL = 'ROW' THEN
        named := ARRAY[NEW.project_id];
    ELSE
        named := ARRAY(SELECT DISTINCT project_id FROM written);
    END IF;
    SELECT count(*) INTO found
    FROM (SELECT 1 FROM projects p WHERE p.id = ANY (named) ORDER BY p.id FOR KEY SHARE) locked;
    IF found < cardinality(named) THEN
        RAISE EXCEPTION 'a finding names a project that does not exist' USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER findings_project_inserted AFTER INSERT ON findings REFERENCING NEW TABLE AS written
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_check_finding_projects();
CREATE TRIGGER findings_project_updated AFTER UPDATE OF project_id ON findings
    FOR EACH ROW WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION barkeep_check_finding_projects();

-- What ON DELETE CASCADE did, at the point described above.
CREATE FUNCTION barkeep_delete_project_findings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM pose_results r USING removed p WHERE r.project_id = p.id AND r.finding_id IS NOT NULL;
    DELETE FROM findings f USING removed p WHERE f.project_id = p.id;
    RETURN NULL;
END $$;

CREATE TRIGGER projects_deleted_findings AFTER DELETE ON projects REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION barkeep_delete_project_findings();
