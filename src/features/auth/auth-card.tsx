import type * as React from "react";
import { Brand } from "~/components/layout/brand";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";

/** The centered card every screen outside the portal uses (sign-in, reset, invitation, onboarding). */
export function AuthCard({
  title,
  description,
  children,
  footer,
  wide = false,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
  /** Room for a form of several fields (the onboarding page). */
  wide?: boolean;
}) {
  return (
    // The muted tint mixed opaque: a translucent one over the page was blended per 256 px tile and
    // rounded apart by a unit at their edges (L15: faint rectangles in headless screenshots).
    <main className="flex min-h-dvh items-center justify-center bg-[color-mix(in_oklab,var(--color-muted)_40%,var(--color-background))] px-4 py-10">
      <div className={`flex w-full flex-col gap-6 ${wide ? "max-w-lg" : "max-w-sm"}`}>
        <div className="flex justify-center">
          <Brand />
        </div>
        <Card>
          <CardHeader>
            {/* The page's one h1 (CardTitle's look): every signed-out screen is this card. */}
            <h1 data-slot="card-title" className="font-semibold text-xl leading-none">
              {title}
            </h1>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
        {footer ? <div className="text-center text-muted-foreground text-sm">{footer}</div> : null}
      </div>
    </main>
  );
}
