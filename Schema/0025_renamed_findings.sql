-- Pass 3 of finding identity: an open finding whose file was renamed (the upload's renames say so) keeps its row
-- and takes the new file and identity, counted on its run as unchanged and moved, and as renamed (a subset of moved).

ALTER TABLE scan_runs ADD COLUMN renamed_count integer NOT NULL DEFAULT 0 CHECK (renamed_count >= 0);
