-- People: a finding may be assigned to someone, named like a token (Core's Assignee: Names.isValidToken, and not
-- `none`, which means no one). Comments need no column: they are `finding.comment` events of the finding.

ALTER TABLE findings ADD COLUMN assignee text COLLATE "C"
    CHECK (assignee ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$' AND lower(assignee) <> 'none');

-- `findings --assignee NAME` and `barkeep mine` select a project's findings by assignee.
CREATE INDEX findings_by_assignee ON findings (project_id, assignee) WHERE assignee IS NOT NULL;
