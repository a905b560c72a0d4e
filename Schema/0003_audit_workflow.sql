-- The audit workflow: the checklist, the rules, the poses and the SDK symbol table as reference data (copied from
-- the domain files: checklist.json, rules.json, poses.json, sdk-symbols.json), what each project knows about its
-- SDK, manual items without a checklist step, and where a pose was verified.

CREATE TABLE checklist_steps (
    step        smallint PRIMARY KEY CHECK (step BETWEEN 1 AND 12),
    key         text COLLATE "C" NOT NULL UNIQUE,
    summary     text NOT NULL,
    -- Scanner rules that evidence the step: an open finding of one keeps the step from being done.
    rules       text[] NOT NULL DEFAULT '{}',
    -- APIs a fix for the step may need that only the iOS 27.1 SDK declares.
    sdk_symbols text[] NOT NULL DEFAULT '{}'
);

CREATE TABLE rules (
    id       text COLLATE "C" PRIMARY KEY,
    title    text NOT NULL,
    severity text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
    skill    text NOT NULL,
    scope    text NOT NULL CHECK (scope IN ('line', 'project')),
    -- Readiness tier: 0 blocker, 1 correctness, 2 bars; NULL when the rule is in no tier.
    tier     smallint CHECK (tier BETWEEN 0 AND 3),
    step     smallint REFERENCES checklist_steps (step)
);

CREATE TABLE poses (
    id          text COLLATE "C" PRIMARY KEY CHECK (id ~ '^P([1-9]|1[0-6])$'),
    ordinal     smallint NOT NULL UNIQUE,
    state       text NOT NULL,
    -- The simulator cannot verify it: only a device may record it as passed.
    device_only boolean NOT NULL,
    concern     text NOT NULL
);

-- Which iOS SDK first declares each API the fixes use; NULL: declared by no SDK yet.
CREATE TABLE sdk_symbols (
    symbol text COLLATE "C" PRIMARY KEY,
    area   text NOT NULL,
    sdk    text CHECK (sdk ~ '^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$'),
    note   text
);

-- The first SDK that declares a symbol, as one project knows it beyond the table above: given by the team when
-- an item needing a symbol the table lacks was added, or read from its SDK check's availability.
CREATE TABLE project_symbols (
    project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    symbol     text COLLATE "C" NOT NULL CHECK (symbol ~ '^[A-Za-z_][A-Za-z0-9_.:()]{0,199}$'),
    sdk        text NOT NULL CHECK (sdk ~ '^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$'),
    PRIMARY KEY (project_id, symbol)
);

-- What the team's SDK checks found: whether the SDK checked declares the symbol, one answer per SDK version (the
-- latest check of that SDK). Only the answer for the project's current SDK decides anything.
CREATE TABLE sdk_checks (
    project_id  bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    symbol      text COLLATE "C" NOT NULL CHECK (symbol ~ '^[A-Za-z_][A-Za-z0-9_.:()]{0,199}$'),
    -- Canonical (as SDKVersion prints it: 27.0, 27.1.2), so equal versions are equal text.
    checked_sdk text NOT NULL CHECK (checked_sdk ~ '^[0-9]{1,3}\.[0-9]{1,3}(\.[0-9]{1,3})?$'),
    found       boolean NOT NULL,
    checked_run bigint NOT NULL,
    PRIMARY KEY (project_id, symbol, checked_sdk),
    FOREIGN KEY (project_id, checked_run) REFERENCES scan_runs (project_id, id)
);

-- A manual item comes from a person (an audit item, or a failed pose); only some belong to a checklist step.
ALTER TABLE findings DROP CONSTRAINT findings_check1;
ALTER TABLE findings ADD CONSTRAINT findings_manual_titled
    CHECK (source <> 'manual' OR (title IS NOT NULL AND title <> ''));
ALTER TABLE findings ADD CONSTRAINT findings_needs_known CHECK (array_position(needs_symbols, NULL) IS NULL);
-- The items an SDK change re-examines.
CREATE INDEX findings_needing_symbols ON findings (project_id) WHERE cardinality(needs_symbols) > 0;

-- Where a pose was verified: the build, and the device or simulator.
ALTER TABLE pose_results ADD COLUMN build text CHECK (build <> '');
ALTER TABLE pose_results ADD COLUMN device text CHECK (device <> '');
ALTER TABLE pose_results ADD CONSTRAINT pose_results_pose_known FOREIGN KEY (pose) REFERENCES poses (id);


INSERT INTO checklist_steps (step, key, summary, rules, sdk_symbols) VALUES
    (1, 'container',
     'Every bar item is owned by a navigation or tab container (no standalone UIToolbar/UINavigationBar/UITabBar); a bar that must stay custom reads the bar edge and reserves its strip.',
     ARRAY['DUO007']::text[], '{}'),
    (2, 'order',
     'Top of the vertical bar: back/close first, then prominent actions (cancellationAction, topBarPinnedTrailing / pinnedTrailingGroup); related items grouped.',
     '{}', '{}'),
    (3, 'title-and-symbol',
     'Every item supplies both a title and a symbol.',
     '{}', '{}'),
    (4, 'informative-text',
     'Text that carries information stays horizontal; redundant text becomes symbol-only, counts become badges.',
     '{}', '{}'),
    (5, 'axis',
     'Items that change shape use horizontalOnly; custom views with a vertical form use verticalPreferred.',
     '{}', ARRAY['axisBehavior', 'ToolbarItemAxisBehavior', 'UIBarButtonItem.axisBehavior']::text[]),
    (6, 'custom-views-fit',
     'Custom views fit the fixed bar width or adapt using the vertical bar edge; legible without scroll edge effect and with Reduce Transparency.',
     '{}', ARRAY['toolbarVerticalEdge', 'verticalBarEdge', 'UIVerticalBarEdge', 'systemTraitsAffectingVerticalBarEdge', 'layoutRegionForBarOnEdge']::text[]),
    (7, 'overflow',
     'One overflow menu; the ellipsis belongs to it; custom grab-bag menus move into the system overflow.',
     ARRAY['DUO011']::text[], '{}'),
    (8, 'compression',
     'The compression preference (toolbar first or tab bar first) fits the screen''s purpose.',
     '{}', ARRAY['toolbarVerticalCompressionBehavior', 'verticalBarCompressionBehavior']::text[]),
    (9, 'priority',
     'visibilityPriority set on groups then items: primary creation and status-bearing items high, rare actions low.',
     '{}', '{}'),
    (10, 'opt-out',
     'Vertical bars are disabled only where it fits (bottom-heavy single page, single-control sheet), as a stable per-presentation choice.',
     '{}', ARRAY['toolbarVerticalBehavior', 'ToolbarVerticalBehavior', 'preferredVerticalBarBehavior', 'UIVerticalBarBehavior', 'childForPreferredVerticalBarBehavior', 'setNeedsUpdateOfVerticalBarConfiguration']::text[]),
    (11, 'backgrounds',
     'Hero images and full-bleed headers extend under the bar with the background extension effect; scrolling content stays inset.',
     '{}', '{}'),
    (12, 'sheets',
     'Sheets start from the default; a placement needs a reason; trailing sheets are checked on device or simulator.',
     '{}', '{}');

INSERT INTO rules (id, title, severity, skill, scope, tier, step) VALUES
    ('DUO001', 'Main screen reference', 'high', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO002', 'Screen bounds used as available space', 'high', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO003', 'User interface idiom check', 'medium', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO004', 'Interface or device orientation used for layout', 'high', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO005', 'App lifecycle without scene lifecycle', 'critical', 'iphone-duo-adaptivity-audit', 'project', 0, NULL),
    ('DUO006', 'Symmetric safe-area or margin arithmetic', 'medium', 'iphone-duo-layout', 'line', 1, NULL),
    ('DUO007', 'Standalone bar instance', 'medium', 'iphone-duo-bars', 'line', 2, 1),
    ('DUO008', 'Deprecated NavigationView', 'low', 'iphone-duo-layout', 'line', NULL, NULL),
    ('DUO009', 'Global window or status bar state', 'medium', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO010', 'Scene activation without error handling', 'medium', 'iphone-duo-displays', 'line', NULL, NULL),
    ('DUO011', 'Custom ellipsis overflow button', 'low', 'iphone-duo-bars', 'line', 2, 7),
    ('DUO012', 'Scene delegate without a scene manifest', 'low', 'iphone-duo-adaptivity-audit', 'project', NULL, NULL),
    ('DUO013', 'Hard-coded Face ID copy or symbol', 'medium', 'iphone-duo-adaptivity-audit', 'line', 1, NULL),
    ('DUO020', 'UIRequiresFullScreen is set', 'info', 'iphone-duo-adaptivity-audit', 'project', NULL, NULL),
    ('DUO021', 'Portrait-only supported orientations', 'info', 'iphone-duo-layout', 'project', NULL, NULL);

INSERT INTO poses (id, ordinal, state, device_only, concern) VALUES
    ('P1', 1, 'Closed, outer display, portrait', false, 'bars'),
    ('P2', 2, 'Closed, outer display, landscape', false, 'bars'),
    ('P3', 3, 'Open flat, inner display, landscape', false, 'bars'),
    ('P4', 4, 'Open flat, inner display, portrait', false, 'bars'),
    ('P5', 5, 'Partially folded, book pose', false, 'layout sheets'),
    ('P6', 6, 'Partially folded, tabletop pose', false, 'layout'),
    ('P7', 7, 'Transitions: close/open, fold/flat', false, 'layout'),
    ('P8', 8, 'Split View multitasking on the inner display', false, 'layout'),
    ('P9', 9, 'Multiple windows (apps that support scenes)', false, 'displays'),
    ('P10', 10, 'Camera app with a capture accessory', true, 'camera'),
    ('P11', 11, 'Right-to-left language on the inner display', false, 'bars'),
    ('P12', 12, 'Reduce Transparency on', false, 'bars'),
    ('P13', 13, 'Camera direction changes (camera apps)', true, 'camera'),
    ('P14', 14, 'StandBy on the outer display', true, 'widgets'),
    ('P15', 15, 'Mac Catalyst build (apps that ship one)', false, 'catalyst'),
    ('P16', 16, 'Physical checks: reach, haptics, hitches, panels', true, 'physical');

INSERT INTO sdk_symbols (symbol, area, sdk, note) VALUES
    ('axisBehavior', 'bars', '27.1', NULL),
    ('ToolbarItemAxisBehavior', 'bars', '27.1', NULL),
    ('UIBarButtonItem.axisBehavior', 'bars', '27.1', NULL),
    ('toolbarVerticalEdge', 'bars', '27.1', NULL),
    ('verticalBarEdge', 'bars', '27.1', NULL),
    ('UIVerticalBarEdge', 'bars', '27.1', NULL),
    ('systemTraitsAffectingVerticalBarEdge', 'bars', '27.1', NULL),
    ('toolbarVerticalBehavior', 'bars', '27.1', NULL),
    ('ToolbarVerticalBehavior', 'bars', '27.1', NULL),
    ('preferredVerticalBarBehavior', 'bars', '27.1', NULL),
    ('UIVerticalBarBehavior', 'bars', '27.1', NULL),
    ('childForPreferredVerticalBarBehavior', 'bars', '27.1', NULL),
    ('setNeedsUpdateOfVerticalBarConfiguration', 'bars', '27.1', NULL),
    ('toolbarVerticalCompressionBehavior', 'bars', '27.1', NULL),
    ('verticalBarCompressionBehavior', 'bars', '27.1', NULL),
    ('layoutRegionForBarOnEdge', 'bars', '27.1', NULL),
    ('reservedRegions', 'layout', '27.1', NULL),
    ('ReservedRegion', 'layout', '27.1', NULL),
    ('UIViewReservedRegion', 'layout', '27.1', NULL),
    ('UIViewReservedRegionKind', 'layout', '27.1', NULL),
    ('ArrangementView', 'layout', '27.1', NULL),
    ('arrangementViewStyle', 'layout', '27.1', NULL),
    ('ArrangementViewStyleConfiguration', 'layout', '27.1', NULL),
    ('AutomaticArrangementViewStyle', 'layout', '27.1', NULL),
    ('UIArrangementViewController', 'layout', '27.1', NULL),
    ('UIArrangementViewState', 'layout', '27.1', NULL),
    ('arrangementViewController', 'layout', '27.1', NULL),
    ('UISplitArrangement', 'layout', '27.1', NULL),
    ('UISplitArrangementDimension', 'layout', '27.1', NULL),
    ('UISplitArrangementDimensionRange', 'layout', '27.1', NULL),
    ('UISplitArrangementViewProperties', 'layout', '27.1', NULL),
    ('UIOverlayArrangement', 'layout', '27.1', NULL),
    ('UIOverlayArrangementViewProperties', 'layout', '27.1', NULL),
    ('splitArrangementAxis', 'layout', '27.1', NULL),
    ('splitArrangementLayoutRatio', 'layout', '27.1', NULL),
    ('splitArrangementLayoutSize', 'layout', '27.1', NULL),
    ('splitArrangementFixedLayoutSize', 'layout', '27.1', NULL),
    ('overlayArrangementEdge', 'layout', '27.1', NULL),
    ('overlayArrangementZIndex', 'layout', '27.1', NULL),
    ('ContentMarginGuide', 'layout', '27.1', NULL),
    ('onHingeChange', 'displays', '27.1', NULL),
    ('UIHinge', 'displays', '27.1', NULL),
    ('UIHingeInteraction', 'displays', '27.1', NULL),
    ('CameraCaptureAccessory', 'displays', '27.1', NULL),
    ('windowCameraCaptureAccessory', 'displays', '27.1', NULL),
    ('AVCaptureDeviceDirectionCoordinator', 'cameras', '27.1', NULL),
    ('AVCaptureDeviceDescriptor', 'cameras', '27.1', NULL),
    ('AVCaptureDeviceDirectionMap', 'cameras', '27.1', NULL),
    ('builtInOuterUltraWideCamera', 'cameras', '27.1', NULL),
    ('builtInInnerUltraWideCamera', 'cameras', '27.1', NULL),
    ('effectiveGeometry', 'adaptivity', '27.0', NULL),
    ('registerForTraitChanges', 'adaptivity', '27.0', NULL),
    ('deviceMotionBody', 'adaptivity', '27.0', NULL),
    ('headingBody', 'adaptivity', '27.0', NULL),
    ('UITraitSystemPrefersReducedResourceUsage', 'adaptivity', '27.0', NULL),
    ('ConcentricRectangle', 'corners', '27.0', NULL),
    ('UICornerConfiguration', 'corners', '27.0', NULL),
    ('defaultTabBarPlacement', 'navigation', '27.0', NULL),
    ('prominentTabIdentifier', 'navigation', '27.0', NULL),
    ('navigationBarMinimization', 'navigation', '27.0', NULL),
    ('toolbarMinimizationBehavior', 'navigation', '27.0', NULL),
    ('preferredImageVisibility', 'navigation', '27.0', NULL),
    ('topBarPinnedTrailing', 'bars', '27.0', NULL),
    ('pinnedTrailingGroup', 'bars', '27.0', NULL),
    ('leftItemsSupplementBackButton', 'bars', '27.0', NULL),
    ('additionalOverflowItems', 'bars', '27.0', NULL),
    ('ToolbarOverflowMenu', 'bars', '27.0', NULL),
    ('visibilityPriority', 'bars', '27.0', NULL),
    ('presentationPlacement', 'bars', '27.0', NULL),
    ('preferredPlacement', 'bars', '27.0', NULL),
    ('backgroundExtensionEffect', 'bars', '27.0', NULL),
    ('UIBackgroundExtensionView', 'bars', '27.0', NULL),
    ('sceneAccessory', 'displays', '27.0', NULL),
    ('onAvailabilityChange', 'displays', '27.0', NULL),
    ('UISceneAccessory', 'displays', '27.0', NULL),
    ('registerSceneAccessory', 'displays', '27.0', NULL),
    ('UISceneAccessoryRegistration', 'displays', '27.0', NULL),
    ('UISceneClosureConfirmation', 'displays', '27.0', NULL),
    ('UIWindowSceneActivationAction', 'displays', '27.0', NULL),
    ('dynamicAspectRatio', 'cameras', '27.0', NULL),
    ('RotationCoordinator', 'cameras', '27.0', NULL),
    ('LAContext.biometryType', 'device', '27.0', NULL),
    ('barMinimizationBehavior', 'navigation', NULL, 'declared by neither the 27.0 nor the 27.1 SDK'),
    ('cameraCapture(sceneConfiguration:userInfo:)', 'displays', '27.1', 'UISceneAccessory itself is 27.0; this factory is 27.1');
