-- Receipts go out (issue 25, docs/decisions/031-receipts.md): each receipt's e-mail state, every
-- acknowledgement sent to a donor, thank-you templates (the organization's and per campaign), bulk
-- year-end statement runs, and attachments in the dev outbox.
CREATE TABLE `acknowledgement` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`donor_id` text,
	`donation_id` text,
	`receipt_id` text,
	`kind` text NOT NULL,
	`period` text,
	`sent_to` text NOT NULL,
	`sent_by` text,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`donation_id`) REFERENCES `donation`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`receipt_id`) REFERENCES `receipt`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "acknowledgement_kind_valid" CHECK("acknowledgement"."kind" in ('receipt','thanks','statement'))
);
--> statement-breakpoint
CREATE INDEX `acknowledgement_donation_idx` ON `acknowledgement` (`donation_id`,`sent_at`);--> statement-breakpoint
CREATE INDEX `acknowledgement_donor_idx` ON `acknowledgement` (`donor_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `statement_run` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`year` integer NOT NULL,
	`basis` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`cursor` text DEFAULT '' NOT NULL,
	`total` integer NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "statement_run_basis_valid" CHECK("statement_run"."basis" in ('calendar','fiscal')),
	CONSTRAINT "statement_run_counts_valid" CHECK("statement_run"."sent" >= 0 AND "statement_run"."skipped" >= 0 AND "statement_run"."sent" + "statement_run"."skipped" <= "statement_run"."total")
);
--> statement-breakpoint
CREATE INDEX `statement_run_org_idx` ON `statement_run` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `thank_you_template` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`campaign_id` text,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`updated_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "thank_you_template_subject_len" CHECK(length("thank_you_template"."subject") BETWEEN 1 AND 200),
	CONSTRAINT "thank_you_template_body_len" CHECK(length("thank_you_template"."body") BETWEEN 1 AND 10000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `thank_you_template_org_default` ON `thank_you_template` (`organization_id`) WHERE campaign_id IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `thank_you_template_org_campaign` ON `thank_you_template` (`organization_id`,`campaign_id`) WHERE campaign_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `attachments` text;--> statement-breakpoint
-- Columns added in place (drizzle-kit would rebuild the table and copy columns that do not exist yet).
ALTER TABLE `receipt` ADD `delivery` text DEFAULT 'none' NOT NULL CONSTRAINT "receipt_delivery_valid" CHECK("delivery" in ('none','queued','sending','sent','failed'));--> statement-breakpoint
ALTER TABLE `receipt` ADD `delivery_at` integer;--> statement-breakpoint
ALTER TABLE `receipt` ADD `delivery_error` text;--> statement-breakpoint
ALTER TABLE `receipt` ADD `sent_at` integer;--> statement-breakpoint
ALTER TABLE `receipt` ADD `sent_to` text;--> statement-breakpoint
ALTER TABLE `receipt` ADD `send_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `receipt_delivery_idx` ON `receipt` (`organization_id`,`delivery_at`) WHERE delivery IN ('queued','sending');--> statement-breakpoint--> statement-breakpoint
CREATE INDEX `receipt_statement_idx` ON `receipt` (`organization_id`,`donor_id`,`donated_at`) WHERE status = 'issued';--> statement-breakpoint
-- Integrity, as drizzle/0003: a receipt's gift and donor, a template's campaign and an
-- acknowledgement's donor and gift are the organization's own.
CREATE TRIGGER `receipt_refs_same_org_insert` AFTER INSERT ON `receipt`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.donation_id IS NOT NULL AND EXISTS (SELECT 1 FROM donation p WHERE p.id = NEW.donation_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: receipt_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `receipt_refs_same_org_update` AFTER UPDATE OF organization_id, donor_id, donation_id ON `receipt`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.donation_id IS NOT NULL AND EXISTS (SELECT 1 FROM donation p WHERE p.id = NEW.donation_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: receipt_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `thank_you_template_campaign_same_org_insert` AFTER INSERT ON `thank_you_template`
WHEN NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: thank_you_template_campaign_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `thank_you_template_campaign_same_org_update` AFTER UPDATE OF organization_id, campaign_id ON `thank_you_template`
WHEN NEW.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaign p WHERE p.id = NEW.campaign_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: thank_you_template_campaign_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `acknowledgement_refs_same_org_insert` AFTER INSERT ON `acknowledgement`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.donation_id IS NOT NULL AND EXISTS (SELECT 1 FROM donation p WHERE p.id = NEW.donation_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: acknowledgement_refs_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `acknowledgement_refs_same_org_update` AFTER UPDATE OF organization_id, donor_id, donation_id ON `acknowledgement`
WHEN (NEW.donor_id IS NOT NULL AND EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id))
  OR (NEW.donation_id IS NOT NULL AND EXISTS (SELECT 1 FROM donation p WHERE p.id = NEW.donation_id AND p.organization_id != NEW.organization_id))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: acknowledgement_refs_same_org'); END;
