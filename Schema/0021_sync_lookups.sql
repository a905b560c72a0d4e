-- Two lookups that a sync's statements make once per row, each turned into a sequential scan of `findings` per row.
--
-- 1. A scanner finding's identity compares byte by byte, as its tool, rule and file have since migration 0001,
--    whatever the database's default collation. An identity is a SHA-256 in hex: byte order is its only order, and
--    equality all anyone asks of it. Under the default collation its unique index (findings_identity) served only
--    comparisons made under the default collation. A sync numbers its new findings in byte order on any database (its
--    temporary rows' identity is COLLATE "C", since commit 4743fb6), and a comparison with a "C" text is made under
--    "C": the lookup of each new finding's row for its event by (project, identity) became a scan of the project's
--    findings per new finding, 90 s of a 100,000-finding sync with 3% new. With the column in "C", the index serves a
--    comparison with a text of either collation (a column's own collation wins over the default), and compares bytes,
--    not a locale's rules. PostgreSQL rebuilds the index and checks the column's constraints again; the table is not
--    rewritten.
ALTER TABLE findings ALTER COLUMN identity TYPE text COLLATE "C";
-- Changing a column's type drops its statistics, and nothing asks autovacuum to gather them again until enough rows
-- change: without them the planner expects a hundred rows per identity instead of one. A table never analysed (a
-- new database) is left so: analysed empty, the planner would trust that it is empty until autovacuum says otherwise.
DO $$
BEGIN
    IF (SELECT reltuples FROM pg_class WHERE oid = 'findings'::regclass) > 0 THEN
        ANALYZE findings (identity);
    END IF;
END $$;

-- 2. The check that an appended event's finding exists (migration 0016) is planned when it runs, not once per
--    session. A trigger's statements are planned at their first run in a session, and that plan is kept until the
--    table's statistics change. A session that first appended an event while `findings` was analysed empty (a new
--    database after `vacuumdb --analyze`, as after a restore or an upgrade) kept checking each appended event with a
--    sequential scan of `findings`: after a first import of 10,000 findings and until autovacuum analysed them, a bulk
--    finding set of 1,400 of them read 14,000,000 rows. Planned each time, it sees the table's size now and the
--    number of events appended (a probe of the primary key per event, or one hash of the findings for many).
CREATE OR REPLACE FUNCTION barkeep_check_event_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    dangling boolean;
BEGIN
    EXECUTE '
        SELECT EXISTS (
            SELECT 1 FROM appended e
            WHERE (e.project_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = e.project_id))
               OR (e.finding_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM findings f WHERE f.id = e.finding_id))
        )' INTO dangling;
    IF dangling THEN
        RAISE EXCEPTION 'an event names a project or finding that does not exist'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END $$;
