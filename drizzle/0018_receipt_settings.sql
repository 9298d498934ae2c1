-- Receipt settings (issue 25, docs/decisions/031-receipts.md): what an organization's tax receipts say
-- beyond its profile and whether they go out on their own. One row per organization.
CREATE TABLE `receipt_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`signatory_name` text,
	`signatory_title` text,
	`tax_statement` text,
	`number_prefix` text DEFAULT '' NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`auto_send` integer DEFAULT false NOT NULL,
	`updated_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "receipt_settings_language_valid" CHECK("receipt_settings"."language" in ('en','fr','de','es','nl','pt','ja')),
	CONSTRAINT "receipt_settings_prefix_len" CHECK(length("receipt_settings"."number_prefix") <= 12)
);
