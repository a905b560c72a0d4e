-- Webhooks: where the daemons POST a project's events (docs/hooks.md). Each hook keeps its own cursor, the last
-- event delivered, so that delivery resumes after a restart where it stopped; one daemon at a time delivers a hook
-- (the lease, as for sources).

CREATE TABLE hooks (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id         bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    url                text NOT NULL CHECK (url ~* '^https?://'),
    -- The event kinds delivered (empty: every kind), and the screen the events must be about or count for.
    kinds              text[] NOT NULL DEFAULT '{}',
    screen             text,
    -- The HMAC key, kept so that every daemon can sign; never sent back by HOOK LIST.
    secret             text,
    format             text NOT NULL CHECK (format IN ('json', 'slack')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    created_by         text NOT NULL,
    -- The cursor: every matching event up to this sequence number was delivered (a 2xx answer).
    delivered_seq      bigint NOT NULL CHECK (delivered_seq >= 0),
    delivered_at       timestamptz,
    -- Consecutive failed attempts, the latest one's reason, and why the hook is paused (NULL: active).
    failures           integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
    last_error         text,
    paused_reason      text,
    -- The lease: the daemon (server id) delivering the hook until lease_until.
    holder             text,
    lease_until        timestamptz
);

CREATE INDEX hooks_by_project ON hooks (project_id, id);
