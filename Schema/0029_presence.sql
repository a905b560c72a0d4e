-- Presence of the daemons serving this database, on one advisory lock.
--
-- Every daemon holds this key's lock in shared mode on a connection of its own ("barkeepd-presence") for as long as
-- it serves; one that also gets it exclusively knows it is the only daemon serving the database ("sole mode"), and
-- keeps its STATUS checks without asking the database again until something could have changed them (docs/
-- protocol.md, "Sessions"; docs/operations.md, "Several daemons on one database"). A daemon that does not know the
-- lock would not take it, and so must not serve this database: this migration makes older daemons refuse it (they
-- refuse a schema newer than theirs). A daemon starting asks the sole one to let it in with
-- NOTIFY barkeep_presence, 'joining' before it waits for its shared lock.
--
-- The key ("barkpres" in ASCII), once: daemons read it from here.
CREATE FUNCTION barkeep_presence_key() RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT 7089073094231483763::bigint $$;

-- Who holds the presence lock now, and how: `sole` is true for a daemon serving the database alone.
-- SELECT * FROM barkeep_presence shows every daemon serving this database.
CREATE VIEW barkeep_presence AS
SELECT a.pid, a.application_name, a.client_addr, a.backend_start, l.granted, l.mode = 'ExclusiveLock' AS sole
FROM pg_locks l
JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory'
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.objsubid = 1
  AND ((l.classid::bigint << 32) | l.objid::bigint) = barkeep_presence_key();
