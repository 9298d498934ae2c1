/** One wording everywhere (issue 21): the labels every screen reads from core/labels.ts. */
import { describe, expect, it } from "vitest";
import {
  ANONYMOUS_DONOR,
  countOf,
  donorLabel,
  PAYMENT_METHOD_LABELS,
  paymentMethodLabel,
  paymentMethods,
  publicDonorLabel,
} from "./labels";

describe("labels", () => {
  it("spells every payment method as its owner does, and reads an unknown code as words", () => {
    expect(paymentMethodLabel("paypal")).toBe("PayPal");
    expect(paymentMethodLabel("bank_transfer")).toBe("Bank transfer");
    expect(paymentMethodLabel("ach_sepa")).toBe("ACH / SEPA");
    for (const m of paymentMethods) expect(paymentMethodLabel(m)).toBe(PAYMENT_METHOD_LABELS[m]);
    expect(paymentMethodLabel("apple_pay")).toBe("Apple pay");
    expect(paymentMethodLabel("")).toBe("Other");
  });

  it("names a gift without a named donor Anonymous, in the portal and on public pages", () => {
    expect(ANONYMOUS_DONOR).toBe("Anonymous");
    expect(donorLabel(null)).toBe("Anonymous");
    expect(donorLabel("  ")).toBe("Anonymous");
    expect(donorLabel("Nora Visible")).toBe("Nora Visible");
    expect(publicDonorLabel("Nora", true)).toBe("Anonymous");
    expect(publicDonorLabel("Nora", 0)).toBe("Nora");
    expect(publicDonorLabel(null, false)).toBe("Anonymous");
  });

  it("counts in the right number: 1 statement, 0 and 2 statements, with thousands separators", () => {
    expect(countOf(1, "statement", "statements")).toBe("1 statement");
    expect(countOf(0, "statement", "statements")).toBe("0 statements");
    expect(countOf(2_500, "donor", "donors")).toBe("2,500 donors");
  });
});
