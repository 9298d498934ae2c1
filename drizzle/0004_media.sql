-- Uploaded images (campaign covers, organization logos), stored in D1 (docs/decisions/008-media-in-d1.md).
-- Type (by magic bytes, never by the header), size (1 byte to 1 MiB) and the hash are established by
-- worker/media.ts before the insert; rows are immutable once written (the URL is cached for a year).
CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`bytes` blob NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `media_org_created_idx` ON `media` (`organization_id`,`created_at`);
