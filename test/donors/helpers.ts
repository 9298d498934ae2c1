import { TRPCError } from "@trpc/server";
import type { callerFor } from "../fixtures";

export type Caller = Awaited<ReturnType<typeof callerFor>>;

/** The refusal itself, for its message and details. */
export async function refusal(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

export async function newDonor(caller: Caller, data: Parameters<Caller["donors"]["create"]>[0]["data"]) {
  const r = await caller.donors.create({ data, force: true });
  if (!r.created) throw new Error(`expected a new donor, got duplicate ${r.duplicate.id}`);
  return r.id;
}

export function gift(
  caller: Caller,
  donorId: string,
  amountMinor: number,
  extra: Partial<Parameters<Caller["donations"]["create"]>[0]> = {},
) {
  return caller.donations.create({
    donorId,
    campaignId: null,
    amountMinor,
    currency: "USD",
    paymentMethod: "cash",
    donatedAt: Date.now(),
    ...extra,
  });
}
