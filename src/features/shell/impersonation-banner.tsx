import { UserRoundX } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth/use-auth";

/** DESIGN §3: a banner with "Stop impersonating" on every page while an admin impersonates. */
export function ImpersonationBanner() {
  const auth = useAuth();
  const [pending, setPending] = React.useState(false);
  if (!auth.isImpersonating || !auth.user) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-3 bg-amber-500 px-4 py-2 text-center font-medium text-amber-950 text-sm"
    >
      <span>
        You are impersonating {auth.user.name} ({auth.user.email}).
      </span>
      <Button
        size="sm"
        variant="outline"
        disabled={pending}
        className="h-7 border-amber-950/30 bg-amber-50 text-amber-950 hover:bg-amber-100"
        onClick={async () => {
          setPending(true);
          try {
            await auth.stopImpersonating();
            toast.success("Impersonation stopped");
          } catch (error) {
            toast.error(error instanceof Error ? error.message : "Failed to stop impersonation");
          } finally {
            setPending(false);
          }
        }}
      >
        <UserRoundX className="size-4" />
        Stop impersonating
      </Button>
    </div>
  );
}
