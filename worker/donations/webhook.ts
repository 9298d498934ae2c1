// A processor's event about one gift, after worker/http/webhook.ts checked its signature. The gateway
// transaction id makes delivery idempotent: concurrent duplicates race on a unique index, one gift wins.

import { donationFrequencies } from "@core/donation";
import { PAYMENT_METHOD_MAX } from "@core/labels";
import { MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR, toMajorString, toMinor } from "@core/money";
import { currencyCode, giftInstantProblem } from "@core/schemas";
import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { z } from "zod";
import { directoryDatabase, organizationDatabase } from "../db/databases";
import type { DonationRow } from "../db/rows";
import { newDonationRow } from "../ledger/donation-change";
import { donorStatsStatements } from "../ledger/donor-stats";
import { generateId } from "../lib/ids";
import { planForGift } from "../plans/webhook";
import { type ChangeActor, changeDonation } from "./change";
import {
  campaignBySlug,
  donationByTransaction,
  donorIdByEmail,
  donorOfDonation,
  insertDonorIfNew,
  organizationBySlug,
} from "./queries";

/** Major units as text ("42.50"); its range is checked in minor units. */
const decimal = z
  .string()
  .max(40)
  .regex(/^\d+(\.\d+)?$/);

export const processorEvent = z.object({
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
    frequency: z.enum(donationFrequencies).default("one_time"),
    paymentMethod: z.string().max(PAYMENT_METHOD_MAX).default("card"),
    gateway: z.string().max(40).default("processor"),
    processingFee: decimal.optional(),
    mode: z.enum(["live", "test"]).default("live"),
    /** The gift joins (or starts) this subscription's recurring plan. */
    subscriptionId: z.string().min(1).max(200).optional(),
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

export type ProcessorEvent = z.infer<typeof processorEvent>;

const STATUS: Record<ProcessorEvent["type"], DonationStatus> = {
  "donation.succeeded": "completed",
  "donation.pending": "pending",
  "donation.failed": "failed",
  "donation.refunded": "refunded",
  "donation.disputed": "disputed",
};

export type EventAnswer = { status: number; body: Record<string, unknown> };
const answer = (body: Record<string, unknown>, status = 200): EventAnswer => ({ status, body });

export async function receiveProcessorEvent(
  env: Env,
  parsed: ProcessorEvent,
  waitUntil?: (p: Promise<unknown>) => unknown,
): Promise<EventAnswer> {
  // Well-formed but outside the shared ranges: 422 with the reason (decision 019), since every page shows it.
  const refuse = (message: string) => answer({ code: "UNPROCESSABLE_CONTENT", message }, 422);
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
    return answer({ code: "BAD_REQUEST", message: "Invalid amount for the currency" }, 400);
  }
  const major = (minor: number) => `${toMajorString(minor, d.currency)} ${d.currency}`;
  if (amountMinor < MIN_AMOUNT_MINOR)
    return refuse(`The amount is below the minimum of ${major(MIN_AMOUNT_MINOR)}`);
  if (amountMinor > MAX_AMOUNT_MINOR)
    return refuse(`The amount is above the processor cap of ${major(MAX_AMOUNT_MINOR)}`);
  if (refundedMinor > amountMinor) return refuse("The refunded amount is more than the amount");
  if (feeMinor > amountMinor) return refuse("The processing fee is more than the amount");
  // The tenant from the directory; its gifts in its own database (decision 027).
  const org = await organizationBySlug(directoryDatabase(env), d.organization);
  if (!org) return answer({ code: "NOT_FOUND", message: "Organization not found" }, 404);
  const db = organizationDatabase(env, org.id);
  const status = STATUS[parsed.type];
  const actor: ChangeActor = { env, user: null, org: { id: org.id, timeZone: org.time_zone }, waitUntil };
  const reason = `webhook event ${parsed.id}`;
  let campaign: { id: string; currency: string } | null | undefined;
  // A write that lost a race changed nothing (decision 020): the delivery runs again on the row as it is now,
  // so an event is neither counted twice nor dropped. After three lost races, 409: the processor retries.
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await donationByTransaction(db, org.id, d.gatewayTransactionId);
    if (existing) {
      if (existing.status === status) return answer({ received: true, duplicate: true, id: existing.id });
      if (!allowedDonationTargets(existing.status, existing.source).includes(status)) {
        return answer(
          {
            code: "UNPROCESSABLE_CONTENT",
            message: `Cannot move a ${existing.status} donation to ${status}`,
            allowed: allowedDonationTargets(existing.status, existing.source),
          },
          422,
        );
      }
      const after: DonationRow = {
        ...existing,
        status,
        refunded_minor: status === "refunded" ? existing.amount_minor : existing.refunded_minor,
        updated_at: Date.now(),
      };
      const landed = await changeDonation(actor, {
        before: existing,
        after,
        audit: {
          action: "donation.webhook_status",
          before: { status: existing.status },
          after: { status },
          reason,
        },
      });
      if (landed) return answer({ received: true, id: existing.id, changed: true });
      continue;
    }
    if (campaign === undefined) {
      campaign = d.campaignSlug ? await campaignBySlug(db, org.id, d.campaignSlug) : null;
      if (d.campaignSlug && !campaign)
        return answer({ code: "NOT_FOUND", message: "Campaign not found" }, 404);
      if (campaign && campaign.currency !== d.currency)
        return answer({ code: "BAD_REQUEST", message: `This campaign collects ${campaign.currency}` }, 400);
    }
    const now = Date.now();
    const id = generateId();
    const email = d.donor?.email.toLowerCase() ?? null;
    // The donor is known now or created by this batch, so its stats and tier are recomputed with the gift.
    const known = email ? await donorIdByEmail(db, org.id, email) : null;
    const donorId = email ? (known?.id ?? generateId()) : null;
    const prelude = email
      ? [
          insertDonorIfNew(db, {
            id: donorId as string,
            orgId: org.id,
            firstName: d.donor?.firstName ?? null,
            lastName: d.donor?.lastName ?? (d.donor?.firstName ? null : email),
            email,
            now,
          }),
        ]
      : [];
    // The gift lands only together with its plan's change. A test-mode payment starts and moves no plan:
    // recurring revenue is live money only.
    const plan =
      d.subscriptionId && d.mode === "live"
        ? await planForGift(db, actor, {
            subscriptionId: d.subscriptionId,
            donorId,
            campaignId: campaign?.id ?? null,
            amountMinor,
            currency: d.currency,
            frequency: d.frequency,
            donatedAt,
            completed: status === "completed",
            gateway: d.gateway,
            paymentMethod: d.paymentMethod,
            reason,
          })
        : null;
    if (plan && "refusal" in plan) return answer({ code: "BAD_REQUEST", message: plan.refusal }, 400);
    const row = newDonationRow({
      id,
      organization_id: org.id,
      plan_id: plan?.planId ?? null,
      donor_id: donorId,
      campaign_id: campaign?.id ?? null,
      amount_minor: amountMinor,
      processing_fee_minor: feeMinor,
      refunded_minor: refundedMinor,
      currency: d.currency,
      status,
      frequency: plan?.frequency ?? d.frequency,
      payment_method: d.paymentMethod,
      gateway: d.gateway,
      gateway_transaction_id: d.gatewayTransactionId,
      source: "webhook",
      mode: d.mode,
      anonymous: d.anonymous,
      message: d.message ?? null,
      donated_at: donatedAt,
      now,
    });
    let landed: boolean;
    try {
      landed = await changeDonation(actor, {
        before: null,
        after: row,
        audit: {
          action: "donation.webhook_create",
          after: { gatewayTransactionId: d.gatewayTransactionId, status },
          reason,
        },
        prelude: [...prelude, ...(plan?.prelude ?? [])],
        requires: plan?.requires ?? undefined,
        ignoreDuplicate: true,
        donorEmail: email,
      });
    } catch (e) {
      // A plan's donor created meanwhile by another delivery under another id: a fresh read next time.
      if (!plan || attempt === 2) throw e;
      continue;
    }
    // A concurrent delivery of the same transaction inserted it first: answer from its row.
    if (!landed) continue;
    const created = await donorOfDonation(db, id);
    // A concurrent delivery created the same donor under another id first: recount that donor too.
    if (created?.donor_id && created.donor_id !== donorId)
      await db.batch(donorStatsStatements(db, org.id, [created.donor_id]));
    return answer({ received: true, id, duplicate: false }, 201);
  }
  return answer(
    { code: "CONFLICT", message: "The donation changed meanwhile; deliver the event again" },
    409,
  );
}
