-- CSV import (issue 23, docs/decisions/028-csv-import.md): the import record with its progress and
-- counts, the rows it refused, saved column mappings; on donations, donors and campaigns the import
-- that created them and the rows' import keys (unique per organization, so a file imported twice
-- creates nothing new). Only new tables, nullable columns and partial indexes: nothing the running
-- release reads changes, and existing rows need no rewrite.
CREATE TABLE `data_import` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`file_name` text NOT NULL,
	`file_hash` text NOT NULL,
	`file_size` integer NOT NULL,
	`total_rows` integer NOT NULL,
	`headers` text NOT NULL,
	`mapping` text NOT NULL,
	`options` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`next_row` integer DEFAULT 2 NOT NULL,
	`batch_token` text,
	`donors_created` integer DEFAULT 0 NOT NULL,
	`donors_updated` integer DEFAULT 0 NOT NULL,
	`donors_matched` integer DEFAULT 0 NOT NULL,
	`gifts_created` integer DEFAULT 0 NOT NULL,
	`campaigns_created` integer DEFAULT 0 NOT NULL,
	`rows_skipped` integer DEFAULT 0 NOT NULL,
	`rows_invalid` integer DEFAULT 0 NOT NULL,
	`created_by` text,
	`completed_at` integer,
	`rolled_back_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "data_import_kind_valid" CHECK("data_import"."kind" in ('donors','donations')),
	CONSTRAINT "data_import_status_valid" CHECK("data_import"."status" in ('running','completed','rolling_back','rolled_back')),
	CONSTRAINT "data_import_next_row" CHECK("data_import"."next_row" >= 2)
);
--> statement-breakpoint
CREATE INDEX `data_import_org_created_idx` ON `data_import` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `data_import_org_file_idx` ON `data_import` (`organization_id`,`file_hash`);--> statement-breakpoint
CREATE TABLE `import_mapping` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`fields` text NOT NULL,
	`options` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "import_mapping_kind_valid" CHECK("import_mapping"."kind" in ('donors','donations')),
	CONSTRAINT "import_mapping_name_len" CHECK(length(trim("import_mapping"."name")) between 1 and 60)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_mapping_org_name_unique` ON `import_mapping` (`organization_id`,`kind`,lower("name"));--> statement-breakpoint
CREATE TABLE `import_rejection` (
	`import_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`reason` text NOT NULL,
	`cells` text NOT NULL,
	PRIMARY KEY(`import_id`, `row_number`),
	FOREIGN KEY (`import_id`) REFERENCES `data_import`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `campaign` ADD `import_id` text;--> statement-breakpoint
CREATE INDEX `campaign_org_import_idx` ON `campaign` (`organization_id`,`import_id`) WHERE import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `donation` ADD `import_id` text;--> statement-breakpoint
ALTER TABLE `donation` ADD `import_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `donation_org_import_key_unique` ON `donation` (`organization_id`,`import_key`) WHERE import_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `donation_org_import_idx` ON `donation` (`organization_id`,`import_id`) WHERE import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `donor` ADD `import_id` text;--> statement-breakpoint
ALTER TABLE `donor` ADD `import_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `donor_org_import_key_unique` ON `donor` (`organization_id`,`import_key`) WHERE import_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `donor_org_import_idx` ON `donor` (`organization_id`,`import_id`) WHERE import_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `donor_org_postal_idx` ON `donor` (`organization_id`,`postal_code`) WHERE postal_code IS NOT NULL;--> statement-breakpoint
CREATE INDEX `donor_org_external_idx` ON `donor` (`organization_id`,`external_id`) WHERE external_id IS NOT NULL;