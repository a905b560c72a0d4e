-- Barkeep's first schema: every entity of the design, with the constraints that keep the data sane.
-- Forward only: never edit a migration that has shipped; add the next number instead.

-- Versions such as "27.1" compare numerically, part by part ("27.10" is newer than "27.9"), padded to three parts
-- so that "27" = "27.0" = "27.0.0", as in Core's SDKVersion.
CREATE FUNCTION barkeep_version(version text) RETURNS integer[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (string_to_array(version, '.')::integer[] || ARRAY[0, 0])[1:3];

-- Whether a scan of `scope` (a path prefix; '' for everything) covers `file`: the same rule as Core's
-- SyncPlanner.isInside (a prefix at a path-component boundary, or a raw prefix when it ends with '/').
CREATE FUNCTION barkeep_covers(scope text, file text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN scope = '' OR file = scope OR starts_with(file, scope || '/')
           OR (right(scope, 1) = '/' AND starts_with(file, scope));

CREATE TABLE projects (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name              text COLLATE "C" NOT NULL UNIQUE
                      CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    sdk               text NOT NULL DEFAULT '27.0' CHECK (sdk ~ '^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$'),
    deployment_target text NOT NULL DEFAULT '26.0'
                      CHECK (deployment_target ~ '^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$'),
    required_poses    text[] NOT NULL DEFAULT ARRAY['P1', 'P2', 'P3', 'P4', 'P11', 'P12']
                      CHECK (required_poses <@ ARRAY['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'P10',
                                                     'P11', 'P12', 'P13', 'P14', 'P15', 'P16']),
    created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE screens (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    -- "unmapped" names the bucket of findings no screen owns, so no screen may take it.
    key        text COLLATE "C" NOT NULL CHECK (key ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$' AND lower(key) <> 'unmapped'),
    title      text,
    owner      text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, key),
    -- Lets other tables reference a screen together with its project, so nothing links across projects.
    UNIQUE (project_id, id)
);

-- The source path globs that own a screen; the longest matching glob wins.
CREATE TABLE screen_paths (
    project_id bigint NOT NULL,
    screen_id  bigint NOT NULL,
    glob       text COLLATE "C" NOT NULL CHECK (glob <> '' AND glob !~ '[[:cntrl:]]'),
    PRIMARY KEY (screen_id, glob),
    -- One glob owned by two screens would make attribution depend on chance.
    UNIQUE (project_id, glob),
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE CASCADE
);

CREATE TABLE scan_runs (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id      bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    format          text NOT NULL CHECK (format IN ('duo-scan', 'sarif', 'sdk-check')),
    tool            text NOT NULL CHECK (tool <> ''),
    tool_version    text,
    commit_sha      text CHECK (commit_sha ~ '^[0-9a-f]{4,64}$'),
    -- A path prefix: a scoped scan closes only findings inside it. Empty means the whole project.
    scope           text NOT NULL DEFAULT '',
    -- SHA-256 of the uploaded content: the same content and scope as the tool's latest run is that run again (a
    -- retried upload). Not unique: a later scan may legitimately equal an earlier one (code removed, then restored).
    digest          text NOT NULL CHECK (digest ~ '^[0-9a-f]{64}$'),
    files_scanned   integer CHECK (files_scanned >= 0),
    new_count       integer NOT NULL DEFAULT 0 CHECK (new_count >= 0),
    fixed_count     integer NOT NULL DEFAULT 0 CHECK (fixed_count >= 0),
    reopened_count  integer NOT NULL DEFAULT 0 CHECK (reopened_count >= 0),
    unchanged_count integer NOT NULL DEFAULT 0 CHECK (unchanged_count >= 0),
    moved_count     integer NOT NULL DEFAULT 0 CHECK (moved_count >= 0),
    actor           text NOT NULL,
    ingested_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, id),
    -- Moved findings are a subset of the unchanged ones.
    CHECK (moved_count <= unchanged_count)
);

CREATE INDEX scan_runs_latest ON scan_runs (project_id, tool, scope, id DESC);

CREATE TABLE findings (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id          bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    source              text NOT NULL CHECK (source IN ('scanner', 'manual')),
    -- Identity of a scanner finding: (project, tool, rule, file, normalized snippet, occurrence). Never the line.
    -- The unique index is on `identity`, the SHA-256 of those parts, since a snippet or a path may be longer than
    -- a B-tree entry can hold.
    tool                text COLLATE "C",
    rule                text COLLATE "C",
    file                text COLLATE "C",
    normalized_snippet  text,
    occurrence          integer CHECK (occurrence >= 0),
    identity            text CHECK (identity ~ '^[0-9a-f]{64}$'),
    -- Everything else describes the finding and may change from run to run.
    line                integer CHECK (line >= 0),
    snippet             text,
    message             text,
    title               text,
    step                smallint CHECK (step BETWEEN 1 AND 12),
    severity            text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
    tier                smallint CHECK (tier BETWEEN 0 AND 3),
    screen_id           bigint,
    status              text NOT NULL DEFAULT 'proposed'
                        CHECK (status IN ('proposed', 'approved', 'applied', 'verified', 'blocked', 'declined',
                                          'kept', 'false_positive', 'fixed')),
    reason              text,
    -- Where a blocked item returns when its SDK arrives.
    status_before_block text CHECK (status_before_block IN ('proposed', 'approved', 'applied', 'verified')),
    needs_symbols       text[] NOT NULL DEFAULT '{}',
    fingerprints        jsonb,
    first_seen_run      bigint,
    last_seen_run       bigint,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, id),
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE SET NULL (screen_id),
    FOREIGN KEY (project_id, first_seen_run) REFERENCES scan_runs (project_id, id),
    FOREIGN KEY (project_id, last_seen_run) REFERENCES scan_runs (project_id, id),
    CHECK (source <> 'scanner' OR (tool IS NOT NULL AND rule IS NOT NULL AND file IS NOT NULL
                                   AND normalized_snippet IS NOT NULL AND occurrence IS NOT NULL
                                   AND identity IS NOT NULL
                                   AND first_seen_run IS NOT NULL AND last_seen_run IS NOT NULL)),
    CHECK (source <> 'manual' OR (title IS NOT NULL AND title <> '' AND step IS NOT NULL)),
    -- Declined, kept and blocked always say why.
    CHECK (status NOT IN ('declined', 'kept', 'blocked') OR (reason IS NOT NULL AND reason <> '')),
    CHECK ((status = 'blocked') = (status_before_block IS NOT NULL))
)
-- A scan rewrites the findings that moved or changed (and reopens and fixes some). Room left in each page lets
-- PostgreSQL update a row in place without touching any index (a HOT update).
WITH (fillfactor = 70);

CREATE UNIQUE INDEX findings_identity ON findings (project_id, identity) WHERE source = 'scanner';
CREATE INDEX findings_by_status ON findings (project_id, status);
CREATE INDEX findings_by_screen ON findings (project_id, screen_id, status);

CREATE TABLE pose_results (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id  bigint NOT NULL,
    screen_id   bigint NOT NULL,
    pose        text NOT NULL CHECK (pose ~ '^P([1-9]|1[0-6])$'),
    result      text NOT NULL CHECK (result IN ('passed', 'failed', 'not_run')),
    screenshot  text,
    finding_id  bigint,
    reason      text,
    actor       text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE CASCADE,
    FOREIGN KEY (project_id, finding_id) REFERENCES findings (project_id, id),
    -- A failure names its evidence and the finding it maps to; not run always says why.
    CHECK (result <> 'failed' OR (screenshot IS NOT NULL AND screenshot <> '' AND finding_id IS NOT NULL)),
    CHECK (result <> 'not_run' OR (reason IS NOT NULL AND reason <> ''))
);

-- Append-only: the current result of a pose is the latest row.
CREATE INDEX pose_results_current ON pose_results (screen_id, pose, id DESC);
CREATE INDEX pose_results_by_finding ON pose_results (finding_id) WHERE finding_id IS NOT NULL;

CREATE TABLE step_states (
    project_id bigint NOT NULL,
    screen_id  bigint NOT NULL,
    step       smallint NOT NULL CHECK (step BETWEEN 1 AND 12),
    state      text NOT NULL CHECK (state IN ('todo', 'done', 'not_applicable')),
    note       text,
    actor      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (screen_id, step),
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE CASCADE
);

-- Every change, in one global order: history, burndown and live watch all read this table. Sequence numbers must
-- follow commit order (readers ask for "everything after N"), so writers append events last in their transaction
-- under a transaction-level advisory lock (see EventLog in the store).
CREATE TABLE events (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Kept when the project goes, so the deletion itself stays in the history.
    project_id bigint REFERENCES projects (id) ON DELETE SET NULL,
    project    text NOT NULL,
    -- The finding the event is about, for a finding's history.
    finding_id bigint REFERENCES findings (id) ON DELETE SET NULL,
    kind       text NOT NULL CHECK (kind ~ '^[a-z][a-z_.]*$'),
    subject    text NOT NULL,
    from_value text,
    to_value   text,
    reason     text,
    actor      text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX events_by_project ON events (project_id, seq);
CREATE INDEX events_by_finding ON events (finding_id, seq) WHERE finding_id IS NOT NULL;

CREATE TABLE tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text COLLATE "C" NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$'),
    role         text NOT NULL CHECK (role IN ('reader', 'writer', 'admin')),
    -- SHA-256 of the token, hex: the token itself is shown once and never stored.
    hash         text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);

CREATE UNIQUE INDEX tokens_active_name ON tokens (name) WHERE revoked_at IS NULL;
