-- Sources: where the daemons pull scans from by themselves (docs/sources.md).

CREATE TABLE sources (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id         bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    kind               text NOT NULL CHECK (kind IN ('inbox', 'repo')),
    format             text NOT NULL CHECK (format IN ('duo-scan', 'sarif', 'sdk-check')),
    -- An inbox: the directory, and how long a file written in place must stay unchanged.
    inbox              text UNIQUE CHECK (inbox LIKE '/%'),
    settle_seconds     integer CHECK (settle_seconds BETWEEN 0 AND 3600),
    -- A repository: its path, the branch followed, the scanner command and its limits.
    repo               text CHECK (repo LIKE '/%'),
    branch             text CHECK (branch <> ''),
    scanner            text CHECK (scanner <> ''),
    every_seconds      integer CHECK (every_seconds BETWEEN 10 AND 604800),
    timeout_seconds    integer CHECK (timeout_seconds BETWEEN 1 AND 86400),
    max_output         bigint CHECK (max_output BETWEEN 1024 AND 4294967296),
    is_paused          boolean NOT NULL DEFAULT false,
    created_at         timestamptz NOT NULL DEFAULT now(),
    created_by         text NOT NULL,
    -- The lease: the daemon (server id) that runs the source until lease_until, renewed while it lives; another
    -- daemon takes the source over once the lease has run out.
    holder             text,
    lease_until        timestamptz,
    -- What the runs left behind.
    last_run_at        timestamptz,
    last_outcome       text CHECK (last_outcome IN ('ok', 'failed')),
    last_error         text,
    last_scan_run      bigint REFERENCES scan_runs (id) ON DELETE SET NULL,
    last_commit        text,
    failures           integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
    next_run_at        timestamptz NOT NULL DEFAULT now(),
    is_run_requested   boolean NOT NULL DEFAULT false,
    CHECK (kind <> 'inbox' OR (inbox IS NOT NULL AND settle_seconds IS NOT NULL AND repo IS NULL)),
    CHECK (kind <> 'repo' OR (repo IS NOT NULL AND branch IS NOT NULL AND scanner IS NOT NULL
                              AND every_seconds IS NOT NULL AND timeout_seconds IS NOT NULL
                              AND max_output IS NOT NULL AND inbox IS NULL))
);

CREATE INDEX sources_by_project ON sources (project_id, id);

-- Every file an inbox source has dealt with, written in the transaction that ingested it (or recorded why it
-- could not be): a daemon that dies before moving the file away finds it here and does not ingest it again.
-- `stamp` tells one file from another of the same name: inode, modification time and size.
CREATE TABLE source_files (
    source_id  bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    name       text NOT NULL,
    stamp      text NOT NULL,
    digest     text NOT NULL,
    outcome    text NOT NULL CHECK (outcome IN ('ok', 'failed')),
    scan_run   bigint REFERENCES scan_runs (id) ON DELETE SET NULL,
    error      text,
    at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source_id, name, stamp)
);
