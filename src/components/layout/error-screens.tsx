import { Link } from "@tanstack/react-router";
import type * as React from "react";
import { MainOrDiv } from "~/components/layout/main-landmark";
import { Button } from "~/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader } from "~/components/ui/card";
import { ArrowLeft, House, RefreshCw, SearchX, TriangleAlert } from "~/components/ui/shell-icons";
import { cn } from "~/lib/utils";

function ScreenFrame({ className, children }: { className?: string; children: React.ReactNode }) {
  return (
    <MainOrDiv className={cn("flex min-h-[70dvh] w-full items-center justify-center p-4 sm:p-6", className)}>
      {children}
    </MainOrDiv>
  );
}

type ErrorScreenProps = {
  title?: string;
  /** What went wrong, in words the reader can act on. */
  message?: React.ReactNode;
  /** Shows a "Try again" button when given (e.g. the router's `reset`). */
  onRetry?: () => void;
  /** The failed request's id (worker/lib/request-log.ts), for the user to quote to support. */
  requestId?: string;
  className?: string;
};

/** The request id an API error carries (tRPC errors' `data.requestId`), if any. */
function requestIdOf(error: unknown): string | undefined {
  const id = (error as { data?: { requestId?: unknown } } | null)?.data?.requestId;
  return typeof id === "string" ? id : undefined;
}

/** Friendly, centered error message with a retry action and a way back home. */
function ErrorScreen({
  title = "Something went wrong!",
  message = "An unexpected error occurred. Please try again in a moment.",
  onRetry,
  requestId,
  className,
}: ErrorScreenProps) {
  return (
    <ScreenFrame className={className}>
      <Card role="alert" className="w-full max-w-md text-center">
        <CardHeader className="justify-items-center gap-3">
          <span
            aria-hidden="true"
            className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive"
          >
            <TriangleAlert className="size-6" />
          </span>
          <h1 className="font-semibold text-xl tracking-tight">{title}</h1>
          <CardDescription className="text-pretty">{message}</CardDescription>
          {requestId ? (
            <p className="text-muted-foreground text-xs">
              If you contact support, quote this reference:{" "}
              <code className="select-all break-all font-mono text-foreground">{requestId}</code>
            </p>
          ) : null}
        </CardHeader>
        <CardFooter className="flex-col-reverse justify-center gap-2 sm:flex-row">
          {/* A plain link on purpose: a full page load recovers from a broken client state. */}
          <Button variant={onRetry ? "outline" : "default"} className="w-full sm:w-auto" asChild>
            <a href="/">
              <House aria-hidden="true" />
              Go to home
            </a>
          </Button>
          {onRetry ? (
            <Button className="w-full sm:w-auto" onClick={onRetry}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          ) : null}
        </CardFooter>
      </Card>
    </ScreenFrame>
  );
}

type NotFoundScreenProps = {
  /** Extra explanation; defaults to a generic sentence. */
  message?: React.ReactNode;
  className?: string;
};

/** Shown for unknown URLs and missing records. */
function NotFoundScreen({
  message = "The page you are looking for does not exist or may have been moved.",
  className,
}: NotFoundScreenProps) {
  return (
    <ScreenFrame className={className}>
      <Card className="w-full max-w-md text-center">
        <CardHeader className="justify-items-center gap-3">
          <span
            aria-hidden="true"
            className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary"
          >
            <SearchX className="size-6" />
          </span>
          <h1 className="font-semibold text-xl tracking-tight">Not Found</h1>
          <CardDescription className="text-pretty">{message}</CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button className="w-full sm:w-auto" asChild>
            <Link to={"/" as never}>
              <ArrowLeft aria-hidden="true" />
              Back to home
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </ScreenFrame>
  );
}

export { ErrorScreen, type ErrorScreenProps, NotFoundScreen, type NotFoundScreenProps, requestIdOf };
