CREATE TABLE `audit_event` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`actor_id` text,
	`impersonator_id` text,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`before` text,
	`after` text,
	`reason` text,
	`ip` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_event_entity_idx` ON `audit_event` (`organization_id`,`entity_type`,`entity_id`,`at`);--> statement-breakpoint
CREATE TABLE `campaign` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`short_description` text,
	`description` text,
	`cover_url` text,
	`currency` text NOT NULL,
	`goal_type` text DEFAULT 'none' NOT NULL,
	`goal_amount_minor` integer,
	`goal_count` integer,
	`start_at` integer,
	`end_at` integer,
	`accept_after_end` integer DEFAULT false NOT NULL,
	`complete_on_goal` integer DEFAULT false NOT NULL,
	`suggested_amounts` text DEFAULT '[]' NOT NULL,
	`min_amount_minor` integer DEFAULT 100 NOT NULL,
	`max_amount_minor` integer DEFAULT 99999999 NOT NULL,
	`allow_recurring` integer DEFAULT true NOT NULL,
	`visibility` text DEFAULT 'public' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`created_by` text,
	`published_at` integer,
	`archived_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "campaign_status_valid" CHECK("campaign"."status" in ('draft','active','paused','completed','archived')),
	CONSTRAINT "campaign_goal_type_valid" CHECK("campaign"."goal_type" in ('none','amount','donations','donors')),
	CONSTRAINT "campaign_goal_positive" CHECK(("campaign"."goal_type" = 'none') or ("campaign"."goal_type" = 'amount' and "campaign"."goal_amount_minor" > 0) or ("campaign"."goal_type" in ('donations','donors') and "campaign"."goal_count" > 0)),
	CONSTRAINT "campaign_title_len" CHECK(length("campaign"."title") between 3 and 128),
	CONSTRAINT "campaign_currency_len" CHECK(length("campaign"."currency") = 3),
	CONSTRAINT "campaign_amount_range" CHECK("campaign"."min_amount_minor" >= 1 and "campaign"."max_amount_minor" >= "campaign"."min_amount_minor"),
	CONSTRAINT "campaign_dates" CHECK("campaign"."end_at" is null or "campaign"."start_at" is null or "campaign"."end_at" > "campaign"."start_at"),
	CONSTRAINT "campaign_visibility_valid" CHECK("campaign"."visibility" in ('public','unlisted','private'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_org_slug_unique` ON `campaign` (`organization_id`,`slug`);--> statement-breakpoint
CREATE INDEX `campaign_org_status_idx` ON `campaign` (`organization_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `campaign_org_created_idx` ON `campaign` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `campaign_item` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`campaign_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`image_url` text,
	`unit_amount_minor` integer NOT NULL,
	`quantity_needed` integer,
	`allow_overfunding` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`archived_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "campaign_item_unit_positive" CHECK("campaign_item"."unit_amount_minor" > 0),
	CONSTRAINT "campaign_item_quantity_positive" CHECK("campaign_item"."quantity_needed" is null or "campaign_item"."quantity_needed" > 0),
	CONSTRAINT "campaign_item_title_len" CHECK(length("campaign_item"."title") between 1 and 128)
);
--> statement-breakpoint
CREATE INDEX `campaign_item_campaign_idx` ON `campaign_item` (`campaign_id`,`sort_order`);--> statement-breakpoint
CREATE TABLE `campaign_slug` (
	`organization_id` text NOT NULL,
	`slug` text NOT NULL,
	`campaign_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `slug`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `campaign_stats` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`raised_minor` integer DEFAULT 0 NOT NULL,
	`donation_count` integer DEFAULT 0 NOT NULL,
	`donor_count` integer DEFAULT 0 NOT NULL,
	`refunded_minor` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `donation` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`number` integer NOT NULL,
	`donor_id` text,
	`campaign_id` text,
	`campaign_item_id` text,
	`item_quantity` integer DEFAULT 0 NOT NULL,
	`amount_minor` integer NOT NULL,
	`fee_covered_minor` integer DEFAULT 0 NOT NULL,
	`processing_fee_minor` integer DEFAULT 0 NOT NULL,
	`platform_fee_minor` integer DEFAULT 0 NOT NULL,
	`refunded_minor` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`frequency` text DEFAULT 'one_time' NOT NULL,
	`payment_method` text DEFAULT 'card' NOT NULL,
	`gateway` text,
	`gateway_transaction_id` text,
	`source` text DEFAULT 'manual' NOT NULL,
	`mode` text DEFAULT 'live' NOT NULL,
	`anonymous` integer DEFAULT false NOT NULL,
	`message` text,
	`tribute_type` text,
	`tribute_name` text,
	`internal_note` text,
	`donated_at` integer NOT NULL,
	`trashed_at` integer,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`campaign_item_id`) REFERENCES `campaign_item`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "donation_amount_positive" CHECK("donation"."amount_minor" > 0),
	CONSTRAINT "donation_money_nonneg" CHECK("donation"."fee_covered_minor" >= 0 and "donation"."processing_fee_minor" >= 0 and "donation"."platform_fee_minor" >= 0 and "donation"."refunded_minor" >= 0),
	CONSTRAINT "donation_refund_le_amount" CHECK("donation"."refunded_minor" <= "donation"."amount_minor"),
	CONSTRAINT "donation_currency_len" CHECK(length("donation"."currency") = 3),
	CONSTRAINT "donation_status_valid" CHECK("donation"."status" in ('pending','processing','completed','failed','cancelled','abandoned','refunded','partially_refunded','disputed')),
	CONSTRAINT "donation_frequency_valid" CHECK("donation"."frequency" in ('one_time','monthly','quarterly','annually')),
	CONSTRAINT "donation_mode_valid" CHECK("donation"."mode" in ('live','test')),
	CONSTRAINT "donation_source_valid" CHECK("donation"."source" in ('manual','online','import','webhook')),
	CONSTRAINT "donation_item_quantity" CHECK("donation"."item_quantity" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donation_org_number_unique` ON `donation` (`organization_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `donation_gateway_tx_unique` ON `donation` (`organization_id`,`gateway_transaction_id`);--> statement-breakpoint
CREATE INDEX `donation_org_date_idx` ON `donation` (`organization_id`,`donated_at`);--> statement-breakpoint
CREATE INDEX `donation_org_status_date_idx` ON `donation` (`organization_id`,`status`,`donated_at`);--> statement-breakpoint
CREATE INDEX `donation_org_amount_idx` ON `donation` (`organization_id`,`amount_minor`);--> statement-breakpoint
CREATE INDEX `donation_campaign_idx` ON `donation` (`campaign_id`,`status`,`donated_at`);--> statement-breakpoint
CREATE INDEX `donation_donor_idx` ON `donation` (`donor_id`,`donated_at`);--> statement-breakpoint
CREATE TABLE `donor` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`type` text DEFAULT 'individual' NOT NULL,
	`first_name` text,
	`last_name` text,
	`company` text,
	`email` text,
	`phone` text,
	`address_line1` text,
	`address_line2` text,
	`city` text,
	`region` text,
	`postal_code` text,
	`country` text,
	`email_opt_in` integer DEFAULT false NOT NULL,
	`phone_opt_in` integer DEFAULT false NOT NULL,
	`mail_opt_in` integer DEFAULT false NOT NULL,
	`external_id` text,
	`anonymized_at` integer,
	`merged_into_id` text,
	`tier_id` text,
	`previous_tier_id` text,
	`tier_locked` integer DEFAULT false NOT NULL,
	`lifetime_minor` integer DEFAULT 0 NOT NULL,
	`donation_count` integer DEFAULT 0 NOT NULL,
	`largest_gift_minor` integer DEFAULT 0 NOT NULL,
	`first_gift_at` integer,
	`last_gift_at` integer,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "donor_type_valid" CHECK("donor"."type" in ('individual','organization')),
	CONSTRAINT "donor_email_lower" CHECK("donor"."email" is null or "donor"."email" = lower("donor"."email")),
	CONSTRAINT "donor_has_name" CHECK("donor"."anonymized_at" is not null or coalesce("donor"."first_name", "donor"."last_name", "donor"."company", "donor"."email") is not null),
	CONSTRAINT "donor_stats_nonneg" CHECK("donor"."lifetime_minor" >= 0 and "donor"."donation_count" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donor_org_email_unique` ON `donor` (`organization_id`,`email`);--> statement-breakpoint
CREATE INDEX `donor_org_name_idx` ON `donor` (`organization_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE INDEX `donor_org_lifetime_idx` ON `donor` (`organization_id`,`lifetime_minor`);--> statement-breakpoint
CREATE INDEX `donor_org_last_gift_idx` ON `donor` (`organization_id`,`last_gift_at`);--> statement-breakpoint
CREATE INDEX `donor_org_created_idx` ON `donor` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `donor_org_tier_idx` ON `donor` (`organization_id`,`tier_id`);--> statement-breakpoint
CREATE TABLE `donor_note` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`donor_id` text NOT NULL,
	`author_id` text,
	`body` text NOT NULL,
	`visibility` text DEFAULT 'internal' NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "donor_note_body_len" CHECK(length("donor_note"."body") between 1 and 5000),
	CONSTRAINT "donor_note_visibility_valid" CHECK("donor_note"."visibility" in ('internal','shared'))
);
--> statement-breakpoint
CREATE INDEX `donor_note_donor_idx` ON `donor_note` (`donor_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `donor_tag` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#0f766e' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "donor_tag_name_len" CHECK(length(trim("donor_tag"."name")) between 1 and 40)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donor_tag_org_name_unique` ON `donor_tag` (`organization_id`,lower("name"));--> statement-breakpoint
CREATE TABLE `donor_tag_assignment` (
	`donor_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`organization_id` text NOT NULL,
	PRIMARY KEY(`donor_id`, `tag_id`),
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `donor_tag`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `donor_tag_assignment_tag_idx` ON `donor_tag_assignment` (`tag_id`,`donor_id`);--> statement-breakpoint
CREATE TABLE `donor_tier` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`basis` text DEFAULT 'lifetime' NOT NULL,
	`min_minor` integer NOT NULL,
	`max_minor` integer,
	`color` text DEFAULT '#64748b' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "donor_tier_basis_valid" CHECK("donor_tier"."basis" in ('lifetime','rolling_12m')),
	CONSTRAINT "donor_tier_range" CHECK("donor_tier"."min_minor" >= 0 and ("donor_tier"."max_minor" is null or "donor_tier"."max_minor" > "donor_tier"."min_minor"))
);
--> statement-breakpoint
CREATE INDEX `donor_tier_org_idx` ON `donor_tier` (`organization_id`,`min_minor`);--> statement-breakpoint
CREATE TABLE `invitation` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`invited_by` text,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invitation_role_valid" CHECK("invitation"."role" in ('owner','admin','organizer','viewer')),
	CONSTRAINT "invitation_email_lower" CHECK("invitation"."email" = lower("invitation"."email"))
);
--> statement-breakpoint
CREATE INDEX `invitation_org_idx` ON `invitation` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `org_counter` (
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `name`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `org_daily` (
	`organization_id` text NOT NULL,
	`campaign_id` text DEFAULT '' NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`raised_minor` integer DEFAULT 0 NOT NULL,
	`donation_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `campaign_id`, `day`, `currency`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `org_daily_day_idx` ON `org_daily` (`organization_id`,`day`);--> statement-breakpoint
CREATE TABLE `organization_badge` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`badge` text NOT NULL,
	`granted_by` text,
	`reason` text,
	`expires_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "organization_badge_known" CHECK("organization_badge"."badge" in ('verified_organization','registered_charity','transparent','top_fundraiser','goal_achiever'))
);
--> statement-breakpoint
CREATE INDEX `organization_badge_org_idx` ON `organization_badge` (`organization_id`,`badge`);