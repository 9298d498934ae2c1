/**
 * A session's device in people's words (L8): "Chrome 142 on macOS", "Safari on iOS 18.2", not
 * the raw user-agent string. Parsed with bowser, a small parser kept for exactly this.
 */
import Bowser from "bowser";

export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split(".")[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ""}` : null;
  const system = os.name
    ? `${os.name}${os.versionName ? ` ${os.versionName}` : os.version ? ` ${os.version}` : ""}`
    : null;
  if (name && system) return `${name} on ${system}`;
  return name ?? system ?? "Unknown device";
}
