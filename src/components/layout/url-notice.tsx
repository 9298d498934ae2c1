import { useRouter, useRouterState } from "@tanstack/react-router";
import * as React from "react";
import { CircleCheck, X } from "~/components/ui/shell-icons";
import { noticeMessage, withoutNotice } from "~/lib/notice";

/**
 * The `?notice=` message of the screen a redirect led to (src/lib/notice.ts): a polite status
 * region, present from the first render so screen readers announce the text when it arrives. The
 * parameter leaves the URL at once (replace, no new history entry); the message stays until closed
 * or until the next page. A link that also carries `error` (a failed verification link comes back
 * with both) shows no success.
 */
export function UrlNotice() {
  const router = useRouter();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [message, setMessage] = React.useState<string | null>(null);
  const shownOn = React.useRef<string | null>(null);
  const code = search.notice;
  const failed = search.error !== undefined;

  React.useEffect(() => {
    if (code === undefined) return;
    const text = failed ? null : noticeMessage(code);
    if (text) {
      setMessage(text);
      shownOn.current = window.location.pathname;
    }
    const href = withoutNotice(window.location.pathname + window.location.search + window.location.hash);
    void router.navigate({ href, replace: true, resetScroll: false });
  }, [code, failed, router]);

  // A message belongs to the screen it was shown on: moving on clears it.
  React.useEffect(() => {
    if (shownOn.current && shownOn.current !== pathname) {
      shownOn.current = null;
      setMessage(null);
    }
  }, [pathname]);

  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      {message ? (
        <div className="pointer-events-auto flex max-w-md items-start gap-3 rounded-lg border border-success/40 bg-popover px-4 py-3 text-popover-foreground text-sm shadow-lg">
          <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" />
          <p className="flex-1">{message}</p>
          <button
            type="button"
            onClick={() => setMessage(null)}
            className="-m-1 rounded-sm p-1 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
            aria-label="Dismiss"
          >
            <X className="size-4" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
