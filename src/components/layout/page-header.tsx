import type * as React from "react";

import { cn } from "~/lib/utils";

type PageHeaderProps = {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons or links for the page's primary actions; they wrap under the title when narrow. */
  actions?: React.ReactNode;
  className?: string;
};

/**
 * Title block at the top of a screen. It carries no outer margin: the app shell's content column
 * spaces its children with `gap-6`.
 */
function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div
      data-slot="page-header"
      className={cn("flex flex-wrap items-start justify-between gap-x-6 gap-y-4", className)}
    >
      {/* The title keeps at least 16rem: actions that leave it less wrap onto their own row. */}
      <div className="min-w-0 flex-1 basis-64 space-y-1">
        <h1 className="text-balance font-semibold text-2xl tracking-tight">{title}</h1>
        {description ? (
          <p className="text-pretty text-muted-foreground text-sm sm:text-base">{description}</p>
        ) : null}
      </div>
      {actions ? <div className="flex min-w-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export { PageHeader, type PageHeaderProps };
