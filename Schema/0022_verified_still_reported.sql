-- A finding someone marked verified that a later scan still reports: the status stays (a person's verdict), but the
-- dashboard, the lists and the report must say so. `reported_after_verified` is set by the sync that first sees the
-- verified finding (with a `finding.persisted` event), and cleared whenever the finding leaves `verified` (a
-- person's new status, a scan that no longer reports it, the SDK): the CHECK makes a writer that forgets fail.
--
-- Stored, not derived: a run after the verification that covered the finding's file and did not fix it reported
-- it, but the verification's place among the runs is known only from the event log, and the dashboard counts these
-- findings on every STATUS. The partial index holds only the flagged findings, so the count is a lookup.
ALTER TABLE findings
    ADD COLUMN reported_after_verified boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT findings_reported_after_verified CHECK (NOT reported_after_verified OR status = 'verified');

CREATE INDEX findings_reported_after_verified ON findings (project_id) WHERE reported_after_verified;

-- Findings verified before this migration that a later run of their tool covering their file still reported: such
-- a run (its `scan.ingested` event after the finding's latest move to verified) would have fixed the finding had it
-- not seen it.
UPDATE findings f SET reported_after_verified = true
WHERE f.status = 'verified' AND f.source = 'scanner'
  AND EXISTS (
      SELECT 1 FROM scan_runs r
      JOIN events e ON e.project_id = r.project_id AND e.kind = 'scan.ingested' AND e.subject = 'run ' || r.number
      WHERE r.project_id = f.project_id AND r.tool = f.tool AND barkeep_covers(r.scope, f.file)
        AND e.seq > (SELECT max(v.seq) FROM events v
                     WHERE v.finding_id = f.id AND v.kind = 'finding.status' AND v.to_value = 'verified'));
