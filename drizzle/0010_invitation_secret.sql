-- Issue 26, docs/decisions/017-org-role-bounds-members.md: an invitation's id is public (listed to
-- members, used for resend and revoke); the accept link carries a separate random secret, stored
-- here only as its SHA-256 (hex), like session tokens. Open invitations written before this
-- migration have no secret, so no link accepts them (their old links carried the id); they stay
-- listed, and resending one sets a secret and mails a working link.
ALTER TABLE `invitation` ADD `secret_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invitation_secret_hash_unique` ON `invitation` (`secret_hash`);
