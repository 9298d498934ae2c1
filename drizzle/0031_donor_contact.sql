CREATE TABLE `donor_contact` (
	`organization_id` text NOT NULL,
	`donor_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`from_donor_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`donor_id`, `kind`, `value`),
	FOREIGN KEY (`organization_id`) REFERENCES `organization`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `donor`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "donor_contact_kind_valid" CHECK("donor_contact"."kind" in ('email','phone')),
	CONSTRAINT "donor_contact_email_lower" CHECK("donor_contact"."kind" != 'email' or "donor_contact"."value" = lower("donor_contact"."value"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donor_contact_org_email_unique` ON `donor_contact` (`organization_id`,`value`) WHERE kind = 'email';--> statement-breakpoint
-- An e-mail address belongs to one donor of the organization, as its main address or as another
-- one (issue 53, decision 052). The unique indexes hold each table; these triggers hold the two
-- together, with the unique index's own message so constraintRefusal answers 409.
CREATE TRIGGER `donor_contact_email_free` BEFORE INSERT ON `donor_contact`
WHEN NEW.kind = 'email' AND EXISTS (SELECT 1 FROM donor d WHERE d.organization_id = NEW.organization_id AND d.email = NEW.value AND d.id != NEW.donor_id)
BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: donor.organization_id, donor.email'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_email_not_an_alternate_insert` AFTER INSERT ON `donor`
WHEN NEW.email IS NOT NULL AND EXISTS (SELECT 1 FROM donor_contact c WHERE c.organization_id = NEW.organization_id AND c.kind = 'email' AND c.value = NEW.email AND c.donor_id != NEW.id)
BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: donor.organization_id, donor.email'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_email_not_an_alternate_update` AFTER UPDATE OF email ON `donor`
WHEN NEW.email IS NOT NULL AND EXISTS (SELECT 1 FROM donor_contact c WHERE c.organization_id = NEW.organization_id AND c.kind = 'email' AND c.value = NEW.email AND c.donor_id != NEW.id)
BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: donor.organization_id, donor.email'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_contact_same_org_insert` AFTER INSERT ON `donor_contact`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_contact_same_org'); END;
--> statement-breakpoint
CREATE TRIGGER `donor_contact_same_org_update` AFTER UPDATE OF organization_id, donor_id ON `donor_contact`
WHEN EXISTS (SELECT 1 FROM donor p WHERE p.id = NEW.donor_id AND p.organization_id != NEW.organization_id)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: donor_contact_same_org'); END;
