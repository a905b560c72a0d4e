-- Correcting discovery: components that use other components, and the directories the team excludes from the audit,
-- which say why a finding there is unmapped.

-- The uses as given (by `screen uses`, or discovery's `--apply`): a screen or a component uses a component.
-- screen_uses keeps, for each screen, the components it uses directly or through other components — what STATUS,
-- the findings filters, readiness and the event log read, one join as before —, rewritten by the store whenever
-- these links or the rows' kinds change.
CREATE TABLE component_links (
    project_id   bigint NOT NULL,
    user_id      bigint NOT NULL,
    component_id bigint NOT NULL,
    PRIMARY KEY (user_id, component_id),
    FOREIGN KEY (project_id, user_id) REFERENCES screens (project_id, id) ON DELETE CASCADE,
    FOREIGN KEY (project_id, component_id) REFERENCES screens (project_id, id) ON DELETE CASCADE,
    CHECK (user_id <> component_id)
);
CREATE INDEX component_links_by_project ON component_links (project_id, component_id);

-- Until now every use was a screen's, given directly: the closure is the uses themselves.
INSERT INTO component_links (project_id, user_id, component_id)
SELECT project_id, screen_id, component_id FROM screen_uses;

-- Paths (a directory, or a file) excluded from the audit: a finding there that no glob takes is unmapped because
-- it is excluded, not because the team forgot it. `why`: discovery's rule (tests, previews, other-target, exclude)
-- or the team's words.
CREATE TABLE screen_exclusions (
    project_id  bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    path        text COLLATE "C" NOT NULL CHECK (path <> '' AND octet_length(path) <= 1024),
    why         text CHECK (octet_length(why) <= 200),
    actor       text NOT NULL,
    excluded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, path)
);
