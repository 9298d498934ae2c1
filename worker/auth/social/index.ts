/** Social sign-in routes, mounted on /api/auth by worker/auth/index.ts. */
import type { Handler } from "../endpoints";
import * as r from "./routes";

export const socialRoutes: Record<string, { method: "GET" | "POST" | "GET|POST"; handler: Handler }> = {
  "/sign-in/social": { method: "POST", handler: r.signInSocial },
  "/callback/:id": { method: "GET|POST", handler: r.callback },
  "/link-social": { method: "POST", handler: r.linkSocial },
  "/get-access-token": { method: "POST", handler: r.getAccessToken },
  "/refresh-token": { method: "POST", handler: r.refreshToken },
  "/account-info": { method: "POST", handler: r.accountInfo },
  "/social/providers": { method: "GET", handler: r.socialProviders },
};
