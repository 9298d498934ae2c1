-- Issue 10: dashboard answers are cached in KV under the organization's analytics version. Every
-- audited change (DESIGN §4: every mutation writes an audit_event in its own batch) of a donation,
-- donor, campaign or the organization bumps the version in the same statement, so a cached answer
-- can never outlive the data it was computed from. Notes and exports change no figure and do not.
-- No foreign key: the audit row of an organization's deletion may follow the deletion itself.
CREATE TABLE `analytics_version` (
  `organization_id` text PRIMARY KEY NOT NULL,
  `version` integer NOT NULL DEFAULT 0
);--> statement-breakpoint
CREATE TRIGGER `audit_event_bumps_analytics_version` AFTER INSERT ON `audit_event`
WHEN NEW.organization_id IS NOT NULL
  AND NEW.entity_type IN ('donation', 'donor', 'campaign', 'organization')
  AND NEW.action NOT LIKE 'note.%' AND NEW.action NOT LIKE '%.export'
BEGIN
  INSERT INTO `analytics_version` (`organization_id`, `version`) VALUES (NEW.organization_id, 1)
    ON CONFLICT (`organization_id`) DO UPDATE SET `version` = `version` + 1;
END;
