/**
 * A gift's receipts on its page (issue 25, decision 031): each receipt it was given, numbered, with
 * its deductible amount; voided ones struck through with when and why, corrections naming the
 * receipt they replace; and, when it has none, why (core/receipts.ts whyNoReceipt).
 */
import { useQuery } from "@tanstack/react-query";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { errorInfo, formatDateTime, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

export function DonationReceipts({ donationId }: { donationId: string }) {
  const trpc = useTRPC();
  const tz = useTimeZone();
  const q = useQuery(trpc.receipts.forDonation.queryOptions({ donationId }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receipts</CardTitle>
        <CardDescription>
          Numbered tax receipts: never edited, voided and replaced when the gift changes.
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
        ) : (
          <>
            {q.data.receipts.length ? (
              <ul className="divide-y" aria-label="Receipts of this gift">
                {q.data.receipts.map((r) => (
                  <li
                    key={r.id}
                    className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2"
                  >
                    <span className="flex flex-wrap items-baseline gap-2">
                      <span className={r.status === "void" ? "font-medium line-through" : "font-medium"}>
                        {r.number}
                      </span>
                      <Badge variant={r.status === "void" ? "outline" : "secondary"}>
                        {r.status === "void" ? "Void" : r.kind === "correction" ? "Correction" : "Issued"}
                      </Badge>
                      {r.replaces ? (
                        <span className="text-muted-foreground">replaces {r.replaces}</span>
                      ) : null}
                    </span>
                    <span className="flex flex-wrap items-baseline gap-x-3 text-muted-foreground">
                      <span className="text-foreground tabular-nums">
                        {formatMoney(r.deductibleMinor, r.currency)} deductible
                      </span>
                      <span>issued {formatDateTime(r.issuedAt, tz)}</span>
                      {r.voidedAt ? (
                        <span>
                          voided {formatDateTime(r.voidedAt, tz)}
                          {r.voidReason ? ` (${r.voidReason})` : ""}
                        </span>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
            {q.data.none ? <p className="text-muted-foreground">{q.data.none}</p> : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
