/**
 * "Record a donation" (donation:create is checked by whoever renders it). The form behind it
 * (./record-donation-dialog.tsx) loads on demand (src/components/lazy-dialog-button.tsx), as
 * /recurring's New plan does: /donations' client JS stays within its budget.
 */
import { Plus } from "lucide-react";
import { lazyDialogButton } from "~/components/lazy-dialog-button";

const load = () => import("./record-donation-dialog");

export const RecordDonationDialog = lazyDialogButton<{ donorId?: string }>({
  label: "Record a donation",
  icon: Plus,
  load: () => load().then((m) => m.RecordDonationDialogBody),
  preload: () => void load().then((m) => m.preloadDonorSearch()),
});
