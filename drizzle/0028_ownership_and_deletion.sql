CREATE TABLE `organization_deletion` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`requested_by` text,
	`requested_at` integer NOT NULL,
	`purged_at` integer,
	`purged_rows` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `organization_deletion_pending_idx` ON `organization_deletion` (`purged_at`);--> statement-breakpoint
CREATE TABLE `ownership_offer` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`from_user_id` text NOT NULL,
	`to_user_id` text NOT NULL,
	`from_becomes` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`to_user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "ownership_offer_from_becomes" CHECK("ownership_offer"."from_becomes" in ('owner','admin')),
	CONSTRAINT "ownership_offer_status_valid" CHECK("ownership_offer"."status" in ('open','accepted','declined','withdrawn','expired')),
	CONSTRAINT "ownership_offer_not_self" CHECK("ownership_offer"."from_user_id" != "ownership_offer"."to_user_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ownership_offer_one_open` ON `ownership_offer` (`organization_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `ownership_offer_to_idx` ON `ownership_offer` (`to_user_id`,`status`);