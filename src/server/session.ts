/** Server-only: the auth state of the request being rendered, read straight from the auth module. */

import { env } from "cloudflare:workers";
import { getRequest } from "@tanstack/react-start/server";
import { getSessionFromRequest } from "../../worker/auth";
import type { Membership, SessionPayload } from "../lib/auth/types";

export async function readServerSession(): Promise<SessionPayload | null> {
  const found = await getSessionFromRequest(getRequest(), env).catch(() => null);
  // Plain JSON, exactly what GET /api/auth/get-session would have answered.
  return found ? (JSON.parse(JSON.stringify(found)) as SessionPayload) : null;
}

export async function readServerMemberships(userId: string): Promise<Membership[]> {
  const { results } = await env.DB.prepare(
    `SELECT m.id, m.organization_id AS organizationId, o.name AS organizationName, o.slug AS organizationSlug, m.role
       FROM membership m JOIN organization o ON o.id = m.organization_id
      WHERE m.user_id = ? ORDER BY o.name`,
  )
    .bind(userId)
    .all<Membership>();
  return results;
}
