import { Download } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { formatCount } from "~/lib/format";

/**
 * Export of the current filters with progress: the server streams the CSV (never truncated); the
 * browser counts records as they arrive against the list's total, then saves the file.
 */
export function ExportButton({ href, total }: { href: string; total: number | undefined }) {
  const [rows, setRows] = React.useState<number | null>(null);
  async function run() {
    setRows(0);
    try {
      const res = await fetch(href, { credentials: "same-origin" });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message ?? `Export failed (${res.status})`);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const chunks: Uint8Array[] = [];
      // Records end with a line break outside quotes (RFC 4180); the header is not a row.
      let count = -1;
      let quoted = false;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        for (const ch of decoder.decode(value, { stream: true })) {
          if (ch === '"') quoted = !quoted;
          else if (ch === "\n" && !quoted) count += 1;
        }
        setRows(Math.max(0, count));
      }
      const name =
        /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "donations.csv";
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      toast.success(`Exported ${formatCount(Math.max(0, count))} donations`);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : "Export failed");
    } finally {
      setRows(null);
    }
  }
  return (
    <div className="flex items-center gap-2">
      <Button variant="outline" onClick={run} disabled={rows !== null}>
        <Download className="size-4" /> Export CSV
      </Button>
      {rows !== null ? (
        <div className="flex w-40 flex-col gap-1" role="status" aria-live="polite">
          <Progress value={total ? rows : null} max={Math.max(1, total ?? 1)} aria-label="Export progress" />
          <span className="text-muted-foreground text-xs tabular-nums">
            {formatCount(rows)}
            {total !== undefined ? ` of ${formatCount(total)}` : ""} rows
          </span>
        </div>
      ) : null}
    </div>
  );
}
