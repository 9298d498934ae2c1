-- Tax receipts (issue 25, docs/decisions/031-receipts.md): one row per receipt, written in the batch of
-- the gift change that calls for it, numbered from the organization's one sequence; never edited,
-- only voided and replaced.
CREATE TABLE `receipt` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`donation_id` text,
	`donor_id` text,
	`number` integer NOT NULL,
	`kind` text NOT NULL,
	`replaces_id` text,
	`status` text DEFAULT 'issued' NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`deductible_minor` integer NOT NULL,
	`donated_at` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`voided_at` integer,
	`void_reason` text,
	`snapshot` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donation_id`) REFERENCES `donation`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "receipt_kind_valid" CHECK("receipt"."kind" in ('original','correction')),
	CONSTRAINT "receipt_status_valid" CHECK("receipt"."status" in ('issued','void')),
	CONSTRAINT "receipt_number_positive" CHECK("receipt"."number" > 0),
	CONSTRAINT "receipt_deductible_valid" CHECK("receipt"."deductible_minor" > 0 AND "receipt"."deductible_minor" <= "receipt"."amount_minor"),
	CONSTRAINT "receipt_void_has_time" CHECK(("receipt"."status" = 'void') = ("receipt"."voided_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_org_number_unique` ON `receipt` (`organization_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_one_issued_per_gift` ON `receipt` (`donation_id`) WHERE status = 'issued' AND donation_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `receipt_donation_idx` ON `receipt` (`donation_id`,`number`);--> statement-breakpoint
CREATE INDEX `receipt_donor_idx` ON `receipt` (`donor_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `receipt_org_issued_idx` ON `receipt` (`organization_id`,`issued_at`);--> statement-breakpoint
-- Gifts recorded before receipts existed here were receipted elsewhere or never: they get none, also
-- when edited later (worker/receipts/ledger.ts reads 'receipts_from'; new organizations start at 0).
INSERT INTO org_counter (organization_id, name, value)
  SELECT id, 'receipts_from', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM organization
  WHERE true ON CONFLICT (organization_id, name) DO NOTHING;
