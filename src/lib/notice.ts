/**
 * One-time success messages carried across a redirect in the URL (`?notice=password-reset`):
 * the next screen shows the message (src/components/layout/url-notice.tsx) and takes the parameter
 * out of the URL, so a reload or a shared link does not say it again. Only these codes are shown;
 * any other value is dropped silently, so a crafted link cannot put words on the page.
 */
const NOTICES = {
  "password-reset": "Your password has been changed. Sign in with your new password.",
  "email-verified": "Your e-mail address is verified.",
  "invitation-accepted": "Invitation accepted. You are now a member of the organization.",
  "account-deleted": "Your account was deleted. You are signed out everywhere.",
  "organization-created": "Your organization is ready. Invite your team from the Organization page.",
} as const;

type NoticeCode = keyof typeof NOTICES;

export function noticeMessage(code: unknown): string | null {
  return typeof code === "string" && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : null;
}

/** A same-origin path with `notice` added (a guard's redirect keeps the message for the next screen). */
export function withNotice(href: string, code: unknown): string {
  if (!noticeMessage(code)) return href;
  const url = new URL(href, "http://x");
  url.searchParams.set("notice", String(code));
  return url.pathname + url.search + url.hash;
}

/** A same-origin path without `notice`. */
export function withoutNotice(href: string): string {
  const url = new URL(href, "http://x");
  url.searchParams.delete("notice");
  return url.pathname + url.search + url.hash;
}
