-- Organizations on request (issue 53, docs/decisions/045-new-organizations.md): what a person asked
-- for until a platform admin approves (the organization is created) or declines it with a reason.
-- An invitation's decline is told apart from a revoke (declined_at; revoked_at is set by both).
CREATE TABLE `organization_request` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`default_currency` text NOT NULL,
	`time_zone` text NOT NULL,
	`fiscal_year_start_month` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	`reason` text,
	`organization_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "organization_request_status_valid" CHECK("organization_request"."status" in ('pending','approved','declined')),
	CONSTRAINT "organization_request_decided" CHECK(("organization_request"."status" = 'pending') = ("organization_request"."decided_at" IS NULL) AND ("organization_request"."status" <> 'declined' OR "organization_request"."reason" IS NOT NULL)),
	CONSTRAINT "organization_request_fiscal_month" CHECK("organization_request"."fiscal_year_start_month" between 1 and 12),
	CONSTRAINT "organization_request_currency_len" CHECK(length("organization_request"."default_currency") = 3)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_request_one_pending` ON `organization_request` (`user_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `organization_request_user_idx` ON `organization_request` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `organization_request_status_idx` ON `organization_request` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `invitation` ADD `declined_at` integer;