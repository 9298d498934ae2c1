import type * as React from "react";
import { Brand } from "~/components/layout/brand";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";

/** The centered card every signed-out screen uses (sign-in, reset, invitation). */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 px-4 py-10">
      <div className="flex w-full max-w-sm flex-col gap-6">
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
