ALTER TABLE `donation` ADD `payment_reference` text;--> statement-breakpoint
ALTER TABLE `recurring_plan` ADD `resume_at` integer;