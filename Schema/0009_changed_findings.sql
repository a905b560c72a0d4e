-- Pass 2 of finding identity: an open finding whose flagged line was edited in place keeps its row and takes the
-- new identity, counted on its run as changed (neither new nor fixed, nor unchanged).

ALTER TABLE scan_runs ADD COLUMN changed_count integer NOT NULL DEFAULT 0 CHECK (changed_count >= 0);
