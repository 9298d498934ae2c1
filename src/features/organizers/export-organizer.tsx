import { Download } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPCClient } from "~/lib/trpc";
import { downloadCsv, organizerCsv } from "./export";

/** The organizer detail page's export: this organizer's memberships and invitations, same columns. */
export function ExportOrganizerButton({ userId }: { userId: string }) {
  const client = useTRPCClient();
  const [busy, setBusy] = React.useState(false);
  return (
    <Button
      variant="outline"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          const { parts, rows } = await organizerCsv(
            (input) => client.organizers.exportPage.mutate(input),
            { userId },
            () => {},
          );
          downloadCsv(parts, `organizer-${userId}`);
          toast.success(`Exported ${formatCount(rows)} rows`);
        } catch (e) {
          toast.error(errorInfo(e).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download className="size-4" aria-hidden /> {busy ? "Exporting…" : "Export CSV"}
    </Button>
  );
}
