-- The committer time of the commit a scan looked at, when the uploader gave it (or a repository source read it):
-- a scan of a commit older than the latest run's of its tool and scope is refused, unless forced (docs/sync.md).

ALTER TABLE scan_runs ADD COLUMN commit_time timestamptz;
