/**
 * "Record a donation" (donation:create is checked by whoever renders it). The form behind it
 * (./record-donation-dialog.tsx) loads when the pointer or focus reaches the button and mounts on
 * the first click, as /recurring's New plan does: /donations' client JS stays within its budget
 * (docs/performance.md).
 */
import { Plus } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";

const loadDialog = () => import("./record-donation-dialog");
const Body = React.lazy(() => loadDialog().then((m) => ({ default: m.RecordDonationDialogBody })));
const preload = () => {
  void loadDialog().then((m) => m.preloadDonorSearch());
};

export function RecordDonationDialog({ donorId }: { donorId?: string }) {
  const [open, setOpen] = React.useState(false);
  const [mounted, setMounted] = React.useState(false);
  const button = React.useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <Plus className="size-4" aria-hidden /> Record a donation
      </Button>
      {mounted ? (
        <React.Suspense fallback={null}>
          <Body donorId={donorId} open={open} onOpenChange={setOpen} returnFocusRef={button} />
        </React.Suspense>
      ) : null}
    </>
  );
}
