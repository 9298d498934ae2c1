/** Server-only: the CSP nonce the Worker made for the page being rendered (worker/http/headers.ts). */

import { getRequest } from "@tanstack/react-start/server";
import { CSP_NONCE_HEADER } from "../../worker/http/headers";

export function requestNonce(): string | undefined {
  return getRequest().headers.get(CSP_NONCE_HEADER) ?? undefined;
}
