-- Decision 020 (extends 006): every write that moves a donation's rollups is conditional on the
-- change token it read (`… WHERE change_token IS ?`) and sets a fresh one, so a request that lost a
-- race changes nothing. That only holds if EVERY update of a donation renews the token: the writes
-- of worker/services/donation-write.ts set it themselves; this trigger gives a fresh one to any
-- other update that did not (a donor merge, an anonymization, ON DELETE SET NULL of a campaign or
-- donor, an import, a hand-written fix), so a request that read the row before it loses instead of
-- writing deltas computed from a stale row.
--
-- Rows written before 0002 (or by the manual create before 0013) may have a NULL token: the guard
-- compares with IS, which matches NULL, and the first write gives the row a token. No back-fill.
-- The trigger's own UPDATE sets change_token, so its WHEN is false there (no recursion either way).
CREATE TRIGGER `donation_change_token_renewed` AFTER UPDATE ON `donation`
WHEN NEW.change_token IS OLD.change_token
BEGIN
  UPDATE `donation` SET `change_token` = lower(hex(randomblob(16))) WHERE `id` = NEW.`id`;
END;
