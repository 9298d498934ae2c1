/**
 * POST /api/webhooks/donations: a payment processor reports gifts (DESIGN §4, issue 8).
 *
 * Signature: header `X-Almoner-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(WEBHOOK_SECRET, "<t>.<raw body>")>`.
 * Deliveries older than `donations.webhookToleranceSeconds` (300 s) are refused (replays). The
 * gateway transaction id makes delivery idempotent: the same event twice changes nothing, and
 * concurrent duplicates race on a unique index so exactly one donation is created.
 */

import { MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR, toMajorString, toMinor } from "@core/money";
import { currencyCode, giftInstantProblem } from "@core/schemas";
import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { z } from "zod";
import { generateId, safeEqual } from "../auth/crypto";
import { getConfig } from "../config";
import type { DonationRow } from "../donations/queries";
import { type DonationActor, writeDonation } from "../donations/write";
import { donorStatsStatements } from "../services/donor-stats";
import { json } from "./headers";

/** A decimal amount in major units as text ("42.50"); its range is checked in minor units. */
const decimal = z
  .string()
  .max(40)
  .regex(/^\d+(\.\d+)?$/);

const payload = z.object({
  id: z.string().min(1).max(100),
  type: z.enum([
    "donation.succeeded",
    "donation.pending",
    "donation.failed",
    "donation.refunded",
    "donation.disputed",
  ]),
  data: z.object({
    organization: z.string().min(1),
    gatewayTransactionId: z.string().min(1).max(200),
    amount: decimal,
    // Checked against the supported currencies below, for a 422 that names the currency.
    currency: z.string().max(10),
    refundedAmount: decimal.optional(),
    donatedAt: z.iso.datetime(),
    campaignSlug: z.string().optional(),
    frequency: z.enum(["one_time", "monthly", "quarterly", "annually"]).default("one_time"),
    paymentMethod: z.string().max(30).default("card"),
    gateway: z.string().max(40).default("processor"),
    processingFee: decimal.optional(),
    mode: z.enum(["live", "test"]).default("live"),
    anonymous: z.boolean().default(false),
    message: z.string().max(1000).optional(),
    donor: z
      .object({
        email: z.email(),
        firstName: z.string().max(100).optional(),
        lastName: z.string().max(100).optional(),
      })
      .optional(),
  }),
});

const STATUS: Record<z.infer<typeof payload>["type"], DonationStatus> = {
  "donation.succeeded": "completed",
  "donation.pending": "pending",
  "donation.failed": "failed",
  "donation.refunded": "refunded",
  "donation.disputed": "disputed",
};

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

export async function handleDonationWebhook(request: Request, env: Env): Promise<Response> {
  if (request.method !== "POST")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
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
  let parsed: z.infer<typeof payload>;
  try {
    parsed = payload.parse(JSON.parse(body));
  } catch {
    return json({ code: "BAD_REQUEST", message: "Invalid payload" }, { status: 400 });
  }
  // Well-formed but outside what the platform stores: 422 with the reason (decision 019). What
  // is stored here is shown on every member's pages, so nothing outside the shared ranges enters.
  const refuse = (message: string) => json({ code: "UNPROCESSABLE_CONTENT", message }, { status: 422 });
  const cur = currencyCode.safeParse(parsed.data.currency);
  if (!cur.success) return refuse(cur.error.issues[0]?.message ?? "Unsupported currency");
  const d = { ...parsed.data, currency: cur.data };
  const donatedAt = Date.parse(d.donatedAt);
  const dateProblem = giftInstantProblem(donatedAt);
  if (dateProblem) return refuse(`donatedAt: ${dateProblem}`);
  let amountMinor: number;
  let refundedMinor = 0;
  let feeMinor = 0;
  try {
    amountMinor = toMinor(d.amount, d.currency);
    if (d.refundedAmount) refundedMinor = toMinor(d.refundedAmount, d.currency);
    if (d.processingFee) feeMinor = toMinor(d.processingFee, d.currency);
  } catch {
    return json({ code: "BAD_REQUEST", message: "Invalid amount for the currency" }, { status: 400 });
  }
  const major = (minor: number) => `${toMajorString(minor, d.currency)} ${d.currency}`;
  if (amountMinor < MIN_AMOUNT_MINOR)
    return refuse(`The amount is below the minimum of ${major(MIN_AMOUNT_MINOR)}`);
  if (amountMinor > MAX_AMOUNT_MINOR)
    return refuse(`The amount is above the processor cap of ${major(MAX_AMOUNT_MINOR)}`);
  if (refundedMinor > amountMinor) return refuse("The refunded amount is more than the amount");
  if (feeMinor > amountMinor) return refuse("The processing fee is more than the amount");
  const db = env.DB;
  const org = await db
    .prepare("SELECT id, time_zone FROM organization WHERE slug = ?")
    .bind(d.organization)
    .first<{ id: string; time_zone: string }>();
  if (!org) return json({ code: "NOT_FOUND", message: "Organization not found" }, { status: 404 });
  const status = STATUS[parsed.type];
  const actor: DonationActor = { env, user: null, org: { id: org.id, timeZone: org.time_zone } };
  const reason = `webhook event ${parsed.id}`;
  let campaign: { id: string; currency: string } | null | undefined;
  // Every write goes through writeDonation (decision 020): one that lost a race to another write
  // (a duplicate delivery, an organizer's edit) changed nothing, and the delivery runs again on
  // the row as it is now, so an event is neither counted twice nor dropped. After three lost
  // races, 409: the processor delivers again later.
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await db
      .prepare("SELECT * FROM donation WHERE organization_id = ? AND gateway_transaction_id = ?")
      .bind(org.id, d.gatewayTransactionId)
      .first<DonationRow>();
    if (existing) {
      if (existing.status === status) return json({ received: true, duplicate: true, id: existing.id });
      if (!allowedDonationTargets(existing.status, existing.source).includes(status)) {
        return json(
          {
            code: "UNPROCESSABLE_CONTENT",
            message: `Cannot move a ${existing.status} donation to ${status}`,
            allowed: allowedDonationTargets(existing.status, existing.source),
          },
          { status: 422 },
        );
      }
      const after: DonationRow = {
        ...existing,
        status,
        refunded_minor: status === "refunded" ? existing.amount_minor : existing.refunded_minor,
        updated_at: Date.now(),
      };
      const landed = await writeDonation(actor, {
        before: existing,
        after,
        audit: {
          action: "donation.webhook_status",
          before: { status: existing.status },
          after: { status },
          reason,
        },
      });
      if (landed) return json({ received: true, id: existing.id, changed: true });
      continue;
    }
    if (campaign === undefined) {
      campaign = d.campaignSlug
        ? await db
            .prepare("SELECT id, currency FROM campaign WHERE organization_id = ? AND slug = ?")
            .bind(org.id, d.campaignSlug)
            .first<{ id: string; currency: string }>()
        : null;
      if (d.campaignSlug && !campaign)
        return json({ code: "NOT_FOUND", message: "Campaign not found" }, { status: 404 });
      if (campaign && campaign.currency !== d.currency)
        return json(
          { code: "BAD_REQUEST", message: `This campaign collects ${campaign.currency}` },
          { status: 400 },
        );
    }
    const now = Date.now();
    const id = generateId();
    const email = d.donor?.email.toLowerCase() ?? null;
    // The donor by e-mail: known now, or created by this batch under `donorId`, so the donor's
    // stats and tier are recomputed in the same batch as the gift (issue 8).
    const known = email
      ? await db
          .prepare("SELECT id FROM donor WHERE organization_id = ? AND email = ?")
          .bind(org.id, email)
          .first<{ id: string }>()
      : null;
    const donorId = email ? (known?.id ?? generateId()) : null;
    const prelude = email
      ? [
          db
            .prepare(
              "INSERT OR IGNORE INTO donor (id, organization_id, first_name, last_name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(
              donorId,
              org.id,
              d.donor?.firstName ?? null,
              d.donor?.lastName ?? (d.donor?.firstName ? null : email),
              email,
              now,
              now,
            ),
        ]
      : [];
    const row: DonationRow = {
      id,
      organization_id: org.id,
      number: 0,
      donor_id: donorId,
      campaign_id: campaign?.id ?? null,
      campaign_item_id: null,
      item_quantity: 0,
      amount_minor: amountMinor,
      fee_covered_minor: 0,
      processing_fee_minor: feeMinor,
      platform_fee_minor: 0,
      refunded_minor: refundedMinor,
      currency: d.currency,
      status,
      frequency: d.frequency,
      payment_method: d.paymentMethod,
      gateway: d.gateway,
      gateway_transaction_id: d.gatewayTransactionId,
      source: "webhook",
      mode: d.mode,
      anonymous: d.anonymous ? 1 : 0,
      message: d.message ?? null,
      tribute_type: null,
      tribute_name: null,
      internal_note: null,
      donated_at: donatedAt,
      trashed_at: null,
      created_at: now,
      updated_at: now,
      created_by: null,
      change_token: null,
    };
    const landed = await writeDonation(actor, {
      before: null,
      after: row,
      audit: {
        action: "donation.webhook_create",
        after: { gatewayTransactionId: d.gatewayTransactionId, status },
        reason,
      },
      prelude,
      ignoreDuplicate: true,
      donorEmail: email,
    });
    // A concurrent delivery of the same transaction inserted it first: answer from its row.
    if (!landed) continue;
    const created = await db
      .prepare("SELECT donor_id FROM donation WHERE id = ?")
      .bind(id)
      .first<{ donor_id: string | null }>();
    // Only when a concurrent delivery created the same donor under another id first: recount that
    // donor too (idempotent).
    if (created?.donor_id && created.donor_id !== donorId)
      await db.batch(donorStatsStatements(db, org.id, [created.donor_id]));
    return json({ received: true, id, duplicate: false }, { status: 201 });
  }
  return json(
    { code: "CONFLICT", message: "The donation changed meanwhile; deliver the event again" },
    { status: 409 },
  );
}
