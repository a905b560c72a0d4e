-- A pull request's checks (scan.checked events) are not a finding's history, and a team posts one per push of each
-- pull request, for as long as the project lives: recording one deletes a bounded number of the project's checks
-- older than Core's CheckRetention window, found here by age without reading the rest of the event log.
CREATE INDEX events_checks_by_age ON events (project_id, at) WHERE kind = 'scan.checked';
