import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";

/** The dev/test mailbox (MAIL_TRANSPORT=outbox): every message the app sent, newest first. */

export function DevMailPage() {
  const tz = useTimeZone();
  const q = useQuery({
    queryKey: ["dev", "mail"],
    queryFn: async () => {
      const res = await fetch("/api/dev/outbox");
      if (!res.ok) throw new Error("The outbox is off (MAIL_TRANSPORT is not outbox).");
      return (await res.json()) as {
        to: string;
        subject: string;
        text: string;
        url: string | null;
        createdAt: string;
      }[];
    },
    refetchInterval: 5000,
  });
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-6">
      <h1 className="font-bold text-2xl">Dev mail</h1>
      {q.error ? (
        <p role="alert" className="text-destructive">
          {(q.error as Error).message}
        </p>
      ) : null}
      {q.data?.length === 0 ? <p className="text-muted-foreground">No messages yet.</p> : null}
      {q.data?.map((m, i) => (
        <Card key={`${m.createdAt}-${i}`}>
          <CardHeader>
            <CardTitle className="text-base">{m.subject}</CardTitle>
            <p className="text-muted-foreground text-sm">
              To {m.to} · {formatDateTime(Date.parse(m.createdAt), tz)}
            </p>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            <p className="whitespace-pre-wrap">{m.text}</p>
            {m.url ? (
              <a href={m.url} className="text-primary underline">
                Open the link
              </a>
            ) : null}
          </CardContent>
        </Card>
      ))}
    </main>
  );
}
