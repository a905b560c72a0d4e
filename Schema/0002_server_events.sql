-- Events about the server itself (API tokens) belong to no project.
ALTER TABLE events ALTER COLUMN project DROP NOT NULL;
ALTER TABLE events ADD CONSTRAINT events_project_named CHECK (project_id IS NULL OR project IS NOT NULL);
