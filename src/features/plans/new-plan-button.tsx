/**
 * The "New plan" button (donation:create is checked by whoever renders it). The dialog behind it
 * (./new-plan-dialog.tsx, ≈ 3 KiB gzip with its form) loads when the pointer or focus reaches the
 * button and mounts on the first click: /recurring's client JS stays within its budget
 * (docs/performance.md), and the donor search loads with it as on the donations list.
 */
import { Plus } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";

const loadDialog = () => import("./new-plan-dialog");
const Body = React.lazy(() => loadDialog().then((m) => ({ default: m.NewPlanDialogBody })));
const preload = () => {
  void loadDialog().then((m) => m.preloadDonorSearch());
};

export function NewPlanDialog({ donorId }: { donorId?: string }) {
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
        <Plus className="size-4" aria-hidden /> New plan
      </Button>
      {mounted ? (
        <React.Suspense fallback={null}>
          <Body donorId={donorId} open={open} onOpenChange={setOpen} returnFocusRef={button} />
        </React.Suspense>
      ) : null}
    </>
  );
}
