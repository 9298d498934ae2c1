import { useSuspenseQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { BadgeCheck } from "lucide-react";
import { Brand } from "~/components/layout/brand";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { formatCount, formatDate, formatMoney, formatPercent, safeImageSrc, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/p/$orgSlug/$slug");

/** The public campaign page: no sign-in, no personal data beyond display names. */

function daysLeft(endAt: number) {
  const days = Math.ceil((endAt - Date.now()) / 86_400_000);
  return days <= 1 ? "last day" : `${days} days left`;
}

export function PublicCampaignPage() {
  const { orgSlug, slug } = route.useParams();
  const { preview } = route.useLoaderData();
  const trpc = useTRPC();
  const input = { organizationSlug: orgSlug, slug };
  const { data } = useSuspenseQuery(
    preview ? trpc.campaigns.preview.queryOptions(input) : trpc.campaigns.public.queryOptions(input),
  );
  const c = data.campaign;
  const tz = data.organization.timeZone;
  const money = (v: number) => formatMoney(v, c.currency);
  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col gap-6 px-4 py-8">
      {data.preview ? (
        <p
          className="rounded-md border border-amber-500/50 bg-amber-50 p-3 text-center text-amber-950 text-sm dark:bg-amber-950 dark:text-amber-50"
          role="status"
        >
          <span className="font-semibold">Preview.</span>{" "}
          {c.status === "draft"
            ? "This draft is not public yet: only members of your organization can open this page."
            : "This campaign is private: only members of your organization can open this page."}
        </p>
      ) : null}
      {/* One row at every width: the brand stays beside the organization, never under it. */}
      <header className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          {safeImageSrc(data.organization.logoUrl) ? (
            <img
              src={safeImageSrc(data.organization.logoUrl) ?? undefined}
              alt={`${data.organization.name} logo`}
              className="size-12 shrink-0 rounded-md border object-contain"
            />
          ) : null}
          <div className="min-w-0">
            <p className="font-semibold">{data.organization.name}</p>
            <div className="mt-1 flex flex-wrap gap-1">
              {data.organization.badges.map((b) => (
                <Badge key={b} variant="secondary">
                  <BadgeCheck className="size-3.5" /> {titleCase(b)}
                </Badge>
              ))}
            </div>
          </div>
        </div>
        <Brand className="shrink-0 [&>span:last-child]:max-sm:sr-only" />
      </header>
      {c.closed ? (
        <p className="rounded-md bg-muted p-3 text-center font-medium" role="status">
          This campaign is closed. Thank you to everyone who gave.
        </p>
      ) : c.status === "paused" ? (
        <p className="rounded-md bg-muted p-3 text-center font-medium" role="status">
          This campaign is paused and not accepting donations right now.
        </p>
      ) : null}
      {safeImageSrc(c.coverUrl) ? (
        <img
          src={safeImageSrc(c.coverUrl) ?? undefined}
          alt=""
          className="aspect-video w-full rounded-lg border object-cover"
          fetchPriority="high"
        />
      ) : null}
      <h1 className="font-bold text-3xl">{c.title}</h1>
      {c.shortDescription ? <p className="text-lg text-muted-foreground">{c.shortDescription}</p> : null}
      <Card>
        <CardContent className="flex flex-col gap-2 p-5">
          <p className="font-semibold text-2xl tabular-nums">{money(c.raisedMinor)} raised</p>
          {c.goalProgress !== null ? (
            <>
              <Progress value={Math.min(100, c.goalProgress * 100)} aria-label="Goal progress" />
              <p className="text-muted-foreground text-sm">
                {formatPercent(c.goalProgress)} of{" "}
                {c.goalType === "amount" ? money(c.goalAmountMinor ?? 0) : `${c.goalCount} ${c.goalType}`}
              </p>
            </>
          ) : null}
          <p className="text-muted-foreground text-sm">
            {formatCount(c.donationCount)} {c.donationCount === 1 ? "donation" : "donations"} from{" "}
            {formatCount(c.donorCount)} {c.donorCount === 1 ? "donor" : "donors"}
            {!c.closed && c.phase === "scheduled" && c.startAt ? ` · opens ${formatDate(c.startAt, tz)}` : ""}
            {/* Not open yet: when it opens is the news, not how long it will run. */}
            {!c.closed && c.phase !== "ended" && c.phase !== "scheduled" && c.endAt
              ? ` · ${daysLeft(c.endAt)}`
              : ""}
          </p>
          {!c.closed && (c.suggestedAmounts.length || c.allowRecurring) ? (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pt-1 text-sm">
              {/* Amounts donors are invited to give, not controls: text, never a button's outline. */}
              {c.suggestedAmounts.length ? (
                <span>
                  <span className="text-muted-foreground">Suggested gifts: </span>
                  <span className="font-medium tabular-nums">
                    {c.suggestedAmounts.map(money).join(" · ")}
                  </span>
                </span>
              ) : null}
              {c.allowRecurring ? (
                <span className="text-muted-foreground text-sm">
                  Monthly, quarterly or annual gifts welcome.
                </span>
              ) : null}
            </div>
          ) : null}
        </CardContent>
      </Card>
      {c.description ? <p className="whitespace-pre-wrap leading-relaxed">{c.description}</p> : null}
      {data.items.length ? (
        <section aria-labelledby="items">
          <h2 id="items" className="mb-2 font-semibold text-lg">
            What your gift funds
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {data.items.map((i) => (
              <li key={i.id} className="flex flex-col gap-2 rounded-md border p-4">
                <span className="flex items-start justify-between gap-2">
                  <span className="font-medium">{i.title}</span>
                  <span className="shrink-0 tabular-nums">{money(i.unitAmountMinor)}</span>
                </span>
                {i.description ? (
                  <span className="text-muted-foreground text-sm">{i.description}</span>
                ) : null}
                {i.quantityNeeded ? (
                  <>
                    <Progress
                      className="h-2"
                      value={Math.min(100, (i.quantityFunded / i.quantityNeeded) * 100)}
                      aria-label={`${i.title} progress`}
                    />
                    <span className="text-muted-foreground text-xs">
                      {i.fullyFunded ? "Fully funded · " : ""}
                      {formatCount(i.quantityFunded)} of {formatCount(i.quantityNeeded)} funded
                    </span>
                  </>
                ) : (
                  <span className="text-muted-foreground text-xs">
                    {formatCount(i.quantityFunded)} funded so far
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="recent">
        <h2 id="recent" className="mb-2 font-semibold text-lg">
          Recent gifts
        </h2>
        <ul className="divide-y rounded-md border">
          {data.recent.length ? (
            data.recent.map((r, i) => (
              <li key={`${r.at}-${i}`} className="flex flex-col gap-1 p-3 text-sm">
                <span className="flex justify-between">
                  <span className="font-medium">{r.name}</span>
                  <span className="tabular-nums">{formatMoney(r.amountMinor, r.currency)}</span>
                </span>
                {r.message ? <span className="text-muted-foreground">“{r.message}”</span> : null}
                <span className="text-muted-foreground text-xs">{formatDate(r.at, tz)}</span>
              </li>
            ))
          ) : (
            <li className="p-3 text-muted-foreground text-sm">Be the first to give.</li>
          )}
        </ul>
      </section>
    </main>
  );
}
