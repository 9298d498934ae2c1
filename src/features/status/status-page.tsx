import { useSuspenseQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CheckCircle2, XCircle } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { useTRPC } from "~/lib/trpc";

/** Public system status: a real tRPC query that reads D1 and round-trips KV. */

export function StatusPage() {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.system.health.queryOptions());
  const rows = [
    {
      name: "Database (D1)",
      ok: data.d1.ok,
      ms: data.d1.ms,
      detail: data.d1.ok ? `${data.d1.value.migrations} migrations applied` : data.d1.error,
    },
    {
      name: "Cache (KV)",
      ok: data.kv.ok,
      ms: data.kv.ms,
      detail: data.kv.ok ? (data.kv.value.roundTrip ? "read-after-write ok" : "stale read") : data.kv.error,
    },
  ];
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-4 p-6">
      <Card>
        <CardHeader>
          <h1 data-slot="card-title" className="flex items-center gap-2 font-semibold leading-none">
            System status
            <Badge variant={data.status === "ok" ? "default" : "destructive"} data-testid="health-status">
              {data.status}
            </Badge>
          </h1>
          <CardDescription>Environment: {data.environment}</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {rows.map((row) => (
              <li key={row.name} className="flex items-center gap-3 py-3">
                {row.ok ? (
                  <CheckCircle2 className="size-5 text-emerald-600" aria-label="ok" />
                ) : (
                  <XCircle className="size-5 text-destructive" aria-label="failing" />
                )}
                <div className="flex-1">
                  <p className="font-medium">{row.name}</p>
                  <p className="text-muted-foreground text-sm">{row.detail}</p>
                </div>
                <span className="text-muted-foreground text-sm tabular-nums">{row.ms} ms</span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Link to="/" className="text-center text-primary text-sm hover:underline">
        Back to the portal
      </Link>
    </main>
  );
}
