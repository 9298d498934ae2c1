// POST /api/webhooks/donations (DESIGN §4), signed `X-Almoner-Signature: t=<unix s>,v1=<hex>`, the hex being
// HMAC-SHA256(WEBHOOK_SECRET, "<t>.<raw body>"); older than donations.webhookToleranceSeconds is refused.

import { safeEqual } from "../auth/crypto";
import { getConfig } from "../config";
import { type ProcessorEvent, processorEvent, receiveProcessorEvent } from "../donations/webhook";
import { type PlanEvent, planEvent, receivePlanEvent } from "../plans/webhook";
import { json, methodNotAllowed } from "./headers";

async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function signWebhook(secret: string, body: string, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

export async function handleDonationWebhook(
  request: Request,
  env: Env,
  waitUntil?: (p: Promise<unknown>) => unknown,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const secret = String(env.WEBHOOK_SECRET ?? "");
  if (!secret) return json({ code: "NOT_FOUND", message: "Webhooks are not configured" }, { status: 404 });
  const body = await request.text();
  const header = request.headers.get("x-almoner-signature") ?? "";
  const parts = Object.fromEntries(header.split(",").map((p) => p.trim().split("=") as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t))
    return json({ code: "UNAUTHORIZED", message: "Missing signature" }, { status: 401 });
  if (!safeEqual(await hmacHex(secret, `${t}.${body}`), parts.v1))
    return json({ code: "UNAUTHORIZED", message: "Invalid signature" }, { status: 401 });
  const tolerance = getConfig(env).donations.webhookToleranceSeconds;
  if (Math.abs(Date.now() / 1000 - t) > tolerance)
    return json({ code: "UNAUTHORIZED", message: "Signature too old" }, { status: 401 });
  let parsed: { kind: "gift"; event: ProcessorEvent } | { kind: "plan"; event: PlanEvent };
  try {
    const raw = JSON.parse(body) as { type?: unknown };
    // Plan events (plan.*) share this signed endpoint; the rest are gifts.
    parsed =
      typeof raw?.type === "string" && raw.type.startsWith("plan.")
        ? { kind: "plan", event: planEvent.parse(raw) }
        : { kind: "gift", event: processorEvent.parse(raw) };
  } catch {
    return json({ code: "BAD_REQUEST", message: "Invalid payload" }, { status: 400 });
  }
  const answer =
    parsed.kind === "plan"
      ? await receivePlanEvent(env, parsed.event)
      : await receiveProcessorEvent(env, parsed.event, waitUntil);
  return json(answer.body, { status: answer.status });
}
