-- Items that close: the item a failed pose created remembers that pose, so that the pose passing on its screen
-- verifies it.

ALTER TABLE findings ADD COLUMN created_by_pose text REFERENCES poses (id);
ALTER TABLE findings ADD CONSTRAINT findings_pose_items_manual CHECK (created_by_pose IS NULL OR source = 'manual');

-- Before this migration only a failed pose created an item without a checklist step (ITEM ADD needs one): its
-- pose is the one of the first result mapped to it.
UPDATE findings f SET created_by_pose = (
    SELECT r.pose FROM pose_results r WHERE r.finding_id = f.id AND r.result = 'failed' ORDER BY r.id LIMIT 1)
WHERE f.source = 'manual' AND f.step IS NULL;
