/**
 * The "New plan" button (donation:create is checked by whoever renders it). The dialog behind it
 * (./new-plan-dialog.tsx, ≈ 3 KiB gzip with its form) loads on demand
 * (src/components/lazy-dialog-button.tsx): /recurring's client JS stays within its budget
 * (docs/performance.md), and the donor search loads with it as on the donations list.
 */
import { Plus } from "lucide-react";
import { lazyDialogButton } from "~/components/lazy-dialog-button";

const load = () => import("./new-plan-dialog");

export const NewPlanDialog = lazyDialogButton<{ donorId?: string }>({
  label: "New plan",
  icon: Plus,
  load: () => load().then((m) => m.NewPlanDialogBody),
  preload: () => void load().then((m) => m.preloadDonorSearch()),
});
