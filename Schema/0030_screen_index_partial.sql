-- findings_by_screen holds the findings a screen owns, not every finding.
--
-- Migration 0027 widened it to take over findings_by_status_rule's reads (a rule or a status over the whole
-- project); migration 0028 brought findings_by_status_rule back, and those reads go to it again. What is left for
-- findings_by_screen is a screen's findings (`screen_id = …`, `screen_id = ANY (…)`), which never ask for a finding
-- no screen owns. A finding without a screen now writes no entry to it: a first import into a project whose screens
-- are not mapped yet (every finding unowned) writes one B-tree fewer in its COPY, and one whose screens own every
-- finding writes the same entries as before.
DROP INDEX findings_by_screen;
CREATE INDEX findings_by_screen ON findings (project_id, screen_id, status, severity, rule) WHERE screen_id IS NOT NULL;
