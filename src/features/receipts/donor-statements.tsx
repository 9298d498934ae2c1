/**
 * Year-end statements on a donor's page (issue 25): one PDF per calendar year, or per fiscal year
 * when the organization's starts later than January, for the years the donor has receipted gifts
 * or imported ones (decision 048).
 * Each opens as a download from GET /api/donors/{id}/statement.pdf (worker/http/receipt-pdf.ts).
 */
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export function DonorStatements({ donorId }: { donorId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.receipts.statementYears.queryOptions({ donorId }));
  const fiscal = q.data && q.data.fiscalYearStartMonth !== 1;
  const link = (year: number, basis: "calendar" | "fiscal", label: string) => (
    <a
      key={`${basis}-${year}`}
      href={`/api/donors/${donorId}/statement.pdf?year=${year}&basis=${basis}`}
      className="inline-flex items-center gap-1 rounded-md border px-2 py-1 hover:bg-accent"
      aria-label={`Download the ${label} statement`}
    >
      <Download aria-hidden className="size-4" />
      {label}
    </a>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Year-end statements</CardTitle>
        <CardDescription>
          Every donation of a year in one PDF, for the donor's tax return: Almoner's receipts, and imported
          donations marked as receipted by your previous system.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {q.error ? (
          <p role="alert" className="text-destructive">
            {errorInfo(q.error).message}
          </p>
        ) : !q.data ? (
          <p className="text-muted-foreground" aria-busy="true">
            Loading…
          </p>
        ) : !q.data.calendar.length ? (
          <p className="text-muted-foreground">
            No receipted or imported donations yet: nothing to put on a statement.
          </p>
        ) : (
          // Two columns, so the calendar and fiscal years' links start at the same place.
          <div className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2">
            <span className="text-muted-foreground">Calendar year</span>
            <div className="flex flex-wrap gap-2">
              {q.data.calendar.map((y) => link(y.year, "calendar", y.label))}
            </div>
            {fiscal ? (
              <>
                <span className="text-muted-foreground">Fiscal year</span>
                <div className="flex flex-wrap gap-2">
                  {q.data.fiscal.map((y) => link(y.year, "fiscal", y.label))}
                </div>
              </>
            ) : null}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
