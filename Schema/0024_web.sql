-- The web dashboard's storage (docs/design/web-dashboard.md, sections 2 and 5): signed-in sessions, and uploaded
-- screenshots stored once by content hash, which a pose result may name.

-- A browser's session: its cookie value is never stored, only its SHA-256 (hex, as tokens store theirs). It lives
-- until expires_at, and no longer than its token: revoking the token ends it at once (the store's lookup joins
-- tokens where revoked_at IS NULL), deleting the token deletes it. The CSRF token is random, not derived from the
-- cookie, and every page of the session carries it; any daemon on this database validates both, so a load balancer
-- needs no affinity.
CREATE TABLE web_sessions (
    id_hash    text PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
    token_id   bigint NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
    csrf_token text NOT NULL CHECK (csrf_token ~ '^[0-9a-f]{64}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    CHECK (expires_at > created_at)
);
CREATE INDEX web_sessions_by_token ON web_sessions (token_id);
CREATE INDEX web_sessions_by_expiry ON web_sessions (expires_at);

-- An uploaded screenshot, stored once by the SHA-256 of its bytes (hex). media_type is Core's
-- ImageHeader.MediaType, the sides at most ScreenshotLimit.maximumSide (both checked by SchemaTests), as the header
-- said when it was checked on upload.
CREATE TABLE screenshots (
    sha256     text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    media_type text NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width      integer NOT NULL CHECK (width BETWEEN 1 AND 16384),
    height     integer NOT NULL CHECK (height BETWEEN 1 AND 16384),
    bytes      bytea NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- PNG and JPEG are compressed already: store them out of line without TOAST's attempt to compress them again.
ALTER TABLE screenshots ALTER COLUMN bytes SET STORAGE EXTERNAL;
-- Uploads no pose names are deleted a day later (the store, on each upload): the oldest first.
CREATE INDEX screenshots_by_age ON screenshots (created_at);

-- A pose result's uploaded screenshot: its `screenshot` text is then `sha256:HEX` (Core's PoseRecording), so the
-- failed-pose CHECK, which needs that text, holds for old and new rows alike. Old rows keep their paths.
ALTER TABLE pose_results ADD COLUMN screenshot_sha256 text REFERENCES screenshots (sha256);
CREATE INDEX pose_results_by_screenshot ON pose_results (screenshot_sha256) WHERE screenshot_sha256 IS NOT NULL;
