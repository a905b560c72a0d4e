-- Screens that match the app: components whose findings count for every screen that uses them, the built-in `app`
-- area for app-wide files, required poses per screen, poses that do not apply, and discovery's dismissals.

-- What a row of screens is: a screen of the app, a component used inside screens, or the built-in `app` area.
ALTER TABLE screens ADD COLUMN kind text NOT NULL DEFAULT 'screen' CHECK (kind IN ('screen', 'component', 'area'));
-- The poses this screen must pass, overriding the project's; NULL: the project's.
ALTER TABLE screens ADD COLUMN required_poses text[]
    CHECK (required_poses <@ ARRAY['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'P10', 'P11', 'P12', 'P13',
                                   'P14', 'P15', 'P16']);

-- `app` names the area from now on: a screen a team called so keeps its rows under another key.
UPDATE screens SET key = key || '-screen' WHERE lower(key) = 'app';
ALTER TABLE screens ADD CONSTRAINT screens_app_area CHECK ((kind = 'area') = (lower(key) = 'app'));

-- Which components each screen uses, directly or through other components (flattened when written).
CREATE TABLE screen_uses (
    project_id   bigint NOT NULL,
    screen_id    bigint NOT NULL,
    component_id bigint NOT NULL,
    PRIMARY KEY (screen_id, component_id),
    FOREIGN KEY (project_id, screen_id) REFERENCES screens (project_id, id) ON DELETE CASCADE,
    FOREIGN KEY (project_id, component_id) REFERENCES screens (project_id, id) ON DELETE CASCADE,
    CHECK (screen_id <> component_id)
);
CREATE INDEX screen_uses_by_project ON screen_uses (project_id, component_id);

-- Keys the team does not want discovery to propose again (dismissed, or a screen removed).
CREATE TABLE screen_dismissals (
    project_id   bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    key          text COLLATE "C" NOT NULL,
    actor        text NOT NULL,
    dismissed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, key)
);

-- A pose that cannot apply to a screen (a debug screen's rotation) is recorded not_applicable, with a reason.
ALTER TABLE pose_results DROP CONSTRAINT pose_results_result_check;
ALTER TABLE pose_results ADD CONSTRAINT pose_results_result_check
    CHECK (result IN ('passed', 'failed', 'not_run', 'not_applicable'));
ALTER TABLE pose_results ADD CONSTRAINT pose_results_not_applicable_reason
    CHECK (result <> 'not_applicable' OR (reason IS NOT NULL AND reason <> ''));

-- Every project has its `app` area, owning the app-wide files (Core's AppArea.defaultGlobs, checked by a test).
INSERT INTO screens (project_id, key, kind, title) SELECT id, 'app', 'area', 'App-wide files' FROM projects;
INSERT INTO screen_paths (project_id, screen_id, glob)
SELECT s.project_id, s.id, g.glob
FROM screens s
CROSS JOIN unnest(ARRAY['**/Info.plist', '**/*.entitlements', '**/*.xcconfig', '**/*.xcodeproj/project.pbxproj'])
    AS g (glob)
WHERE s.kind = 'area'
ON CONFLICT DO NOTHING;
-- Findings of those files that no screen owned move to the area (one that a screen's glob owns stays there).
UPDATE findings f SET screen_id = s.id
FROM screens s
WHERE s.project_id = f.project_id AND s.kind = 'area' AND f.screen_id IS NULL
  AND f.file ~ '(^|/)(Info\.plist|[^/]*\.entitlements|[^/]*\.xcconfig|[^/]*\.xcodeproj/project\.pbxproj)$';
