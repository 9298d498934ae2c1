// The ledger writes (worker/ledger/donation-change.ts); this area sends the receipts it queued.
import {
  type DonationActor,
  type DonationChange,
  writeDonation,
  writeDonations,
} from "../ledger/donation-change";
import { afterReceiptIssued } from "../receipts/delivery";

export type ChangeActor = DonationActor & { waitUntil?: (p: Promise<unknown>) => unknown };

export async function changeDonation(actor: ChangeActor, c: DonationChange): Promise<boolean> {
  const write = await writeDonation(actor, c);
  if (write.receiptsQueued) await afterReceiptIssued(actor);
  return write.landed;
}

/** Many changes in ONE batch (a bulk action). */
export async function changeDonations(actor: ChangeActor, changes: readonly DonationChange[]) {
  const write = await writeDonations(actor, changes);
  if (write.receiptsQueued) await afterReceiptIssued(actor);
  return write.landed;
}
