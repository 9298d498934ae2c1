/**
 * A gift's receipts on its page (issue 25, decision 031): each receipt it was given, numbered, with
 * its deductible amount; voided ones struck through with when and why, corrections naming the
 * receipt they replace; and, when it has none, why (core/receipts.ts whyNoReceipt). Each receipt
 * opens as a PDF; whoever may send (receipt:send) e-mails the receipt with the thank-you, or the
 * thank-you alone, and sees what went out, when, to whom and by whom — or why nothing can.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileText, Mail, Send } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatDateTime, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const DELIVERY: Record<string, string> = {
  queued: "Going out shortly",
  sending: "Sending…",
  failed: "Not sent",
};

const KIND: Record<string, string> = {
  receipt: "Thank-you with receipt",
  correction: "Corrected receipt",
  refund: "Refund notice",
  thanks: "Thank-you",
  statement: "Year-end statement",
};

/** A void's internal note: the staff's words, or the change that voided it when none were given. */
const CHANGE_WORDS: Record<string, string> = {
  "donation.trash": "moved to the trash",
  "donation.purge": "deleted",
  "donation.update": "donation edited",
  "donation.status": "status changed",
  "donation.correction": "status corrected",
};
const noteWords = (reason: string) => CHANGE_WORDS[reason] ?? reason;

export function DonationReceipts({ donationId }: { donationId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const tz = useTimeZone();
  const can = useCan();
  const maySend = can({ receipt: ["send"] });
  const q = useQuery({
    ...trpc.receipts.forDonation.queryOptions({ donationId }),
    // A receipt queued by the change that issued it goes out after that change's response: ask
    // again every few seconds while one waits, so "Going out shortly" turns into "E-mailed to …"
    // on its own (two minutes at most; the 15-minute cron sends what is still waiting then).
    refetchInterval: (query) =>
      query.state.dataUpdateCount < 60 &&
      query.state.data?.receipts.some((r) => r.delivery === "queued" || r.delivery === "sending")
        ? 2_000
        : false,
  });
  const refresh = () =>
    qc.invalidateQueries({ queryKey: trpc.receipts.forDonation.queryKey({ donationId }) });
  const send = useMutation(
    trpc.receipts.send.mutationOptions({
      onSuccess: (r) => toast.success(`Receipt ${r.number} sent to ${r.sentTo}`),
      onError: (e) => toast.error(errorInfo(e).message),
      onSettled: refresh,
    }),
  );
  const thank = useMutation(
    trpc.receipts.sendThanks.mutationOptions({
      onSuccess: (r) => toast.success(`Thank-you sent to ${r.sentTo}`),
      onError: (e) => toast.error(errorInfo(e).message),
      onSettled: refresh,
    }),
  );
  const issued = q.data?.receipts.find((r) => r.id === q.data?.issuedId);
  const busy = send.isPending || thank.isPending;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receipts</CardTitle>
        <CardDescription>
          Numbered tax receipts: never edited, voided and replaced when the donation changes.
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
              <ul className="divide-y" aria-label="Receipts of this donation">
                {q.data.receipts.map((r) => (
                  <li key={r.id} className="flex flex-col gap-1 py-2">
                    {/* The number on its line, what it says under it: the same places on every row,
                        whether a void receipt's reason makes its details long or not. */}
                    <span className="flex flex-col gap-1">
                      <span className="flex flex-wrap items-baseline gap-2">
                        <a
                          href={`/api/receipts/${r.id}.pdf`}
                          target="_blank"
                          rel="noopener"
                          className={`inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline ${r.status === "void" ? "line-through" : ""}`}
                          aria-label={`Receipt ${r.number} (PDF)`}
                        >
                          <FileText aria-hidden className="size-4" />
                          {r.number}
                        </a>
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
                            {r.voidReason ? ` (${noteWords(r.voidReason)})` : ""}
                          </span>
                        ) : null}
                      </span>
                    </span>
                    {r.sentAt ? (
                      <span className="text-muted-foreground">
                        E-mailed to {r.sentTo} on {formatDateTime(r.sentAt, tz)}
                        {r.sendCount > 1 ? ` (sent ${r.sendCount} times)` : ""}
                      </span>
                    ) : DELIVERY[r.delivery] && (r.status === "issued" || r.voidCause === "refunded") ? (
                      <span
                        className={r.delivery === "failed" ? "text-destructive" : "text-muted-foreground"}
                      >
                        {DELIVERY[r.delivery]}
                        {r.deliveryError ? `: ${r.deliveryError}` : ""}
                      </span>
                    ) : r.status === "issued" ? (
                      <span className="text-muted-foreground">Not e-mailed to the donor</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {q.data.none ? <p className="text-muted-foreground">{q.data.none}</p> : null}
            {maySend && q.data.noSend ? <p className="text-muted-foreground">{q.data.noSend}</p> : null}
            {maySend && !q.data.noSend ? (
              <div className="flex flex-wrap gap-2">
                {issued ? (
                  <Button size="sm" disabled={busy} onClick={() => send.mutate({ donationId })}>
                    <Send aria-hidden className="size-4" />
                    {issued.sentAt ? "Resend receipt" : "Send receipt"}
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  onClick={() => thank.mutate({ donationId })}
                >
                  <Mail aria-hidden className="size-4" />
                  Send thank-you only
                </Button>
              </div>
            ) : null}
            {q.data.acknowledgements.length ? (
              <div className="flex flex-col gap-1">
                <h3 className="font-medium">Sent to the donor</h3>
                <ul className="flex flex-col gap-1 text-muted-foreground" aria-label="Sent to the donor">
                  {q.data.acknowledgements.map((a) => (
                    <li key={a.id}>
                      {KIND[a.kind] ?? a.kind} to {a.sentTo}, {formatDateTime(a.sentAt, tz)}
                      {a.sentBy ? ` by ${a.sentBy}` : " (sent automatically)"}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
