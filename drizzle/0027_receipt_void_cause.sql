-- Issue 53 (decisions 048, 049): a void receipt says why in the donor's words ('replaced', 'refunded', 'cancelled'),
-- printed in the receipt's language; void_reason stays the staff's internal note (M9).
ALTER TABLE `receipt` ADD `void_cause` text;--> statement-breakpoint
-- Decision 048: year-end statement runs walk the donors of imported gifts in id order.
CREATE INDEX `donation_imported_donor_idx` ON `donation` (`organization_id`,`donor_id`,`donated_at`) WHERE source = 'import';--> statement-breakpoint
-- Adversarial finding 1: a purge deleted the gift before its receipt was voided, so the receipt
-- stayed issued with donation_id NULL (ON DELETE set null) and year-end statements listed it. An
-- issued receipt always has its gift (the ledger issues it in the gift's batch): void those left.
UPDATE `receipt` SET `status` = 'void', `void_cause` = 'cancelled', `void_reason` = 'donation.purge',
  `voided_at` = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
  WHERE `status` = 'issued' AND `donation_id` IS NULL;--> statement-breakpoint
-- The causes of the receipts voided before this: a correction names it, else its gift's state.
UPDATE `receipt` SET `void_cause` = CASE
    WHEN EXISTS (SELECT 1 FROM `receipt` c WHERE c.`replaces_id` = `receipt`.`id`) THEN 'replaced'
    WHEN EXISTS (SELECT 1 FROM `donation` d WHERE d.`id` = `receipt`.`donation_id` AND d.`trashed_at` IS NULL
                  AND d.`status` IN ('refunded','partially_refunded','disputed')) THEN 'refunded'
    ELSE 'cancelled' END
  WHERE `status` = 'void' AND `void_cause` IS NULL;
