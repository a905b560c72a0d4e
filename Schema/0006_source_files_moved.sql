-- The inbox ledger learns when a file left the inbox, so that one moved back in later (to retry a refused scan,
-- or to ingest a scan again) is a new drop rather than a file already dealt with; and deleting scan runs (a
-- project's deletion) finds their ledger rows by index.

ALTER TABLE source_files ADD COLUMN moved_at timestamptz;

CREATE INDEX source_files_by_scan_run ON source_files (scan_run) WHERE scan_run IS NOT NULL;
