/**
 * Automatic column mapping on the exports a team brings (test/fixtures/imports/): each file's
 * essential columns map to the right fields, and the file is recognized.
 */
import { describe, expect, it } from "vitest";
import bloomerangConstituents from "../../test/fixtures/imports/bloomerang-constituents.csv?raw";
import bloomerangTransactions from "../../test/fixtures/imports/bloomerang-transactions.csv?raw";
import civicrm from "../../test/fixtures/imports/civicrm-contributions.csv?raw";
import donorbox from "../../test/fixtures/imports/donorbox-donations.csv?raw";
import givewp from "../../test/fixtures/imports/givewp-donations.csv?raw";
import npsp from "../../test/fixtures/imports/npsp-opportunities.csv?raw";
import opencollective from "../../test/fixtures/imports/opencollective-transactions.csv?raw";
import stripe from "../../test/fixtures/imports/stripe-payments.csv?raw";
import type { ImportField, ImportKind } from "./fields";
import { applySavedMapping, autoMap, detectSource, mappingToSave, normalizeHeader } from "./mapping";
import { readShape } from "./read";

/** The header each field was mapped from. */
function mapped(kind: ImportKind, text: string) {
  const { headers } = readShape(text);
  const m = autoMap(kind, headers);
  const by: Partial<Record<ImportField, string>> = {};
  m.forEach((f, i) => {
    if (f) by[f] = headers[i] as string;
  });
  return { by, headers, m };
}

describe("automatic mapping of real exports", () => {
  it("GiveWP", () => {
    const { by } = mapped("donations", givewp);
    expect(by).toMatchObject({
      giftExternalId: "Donation ID",
      amount: "Donation Total",
      currency: "Currency Code",
      status: "Donation Status",
      donatedAt: "Donation Date",
      donatedTime: "Donation Time",
      gateway: "Payment Gateway",
      mode: "Payment Mode",
      campaign: "Form Title",
      donorExternalId: "Donor ID",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email Address",
      company: "Company Name",
      addressLine1: "Address 1",
      addressLine2: "Address 2",
      postalCode: "Zip",
      message: "Donor Comment",
    });
    expect(detectSource(readShape(givewp).headers)?.label).toBe("GiveWP");
  });

  it("Donorbox", () => {
    const { by } = mapped("donations", donorbox);
    expect(by).toMatchObject({
      firstName: "Donor First Name",
      lastName: "Donor Last Name",
      email: "Donor Email",
      anonymous: "Make Donation Anonymous",
      campaign: "Campaign",
      amount: "Amount",
      currency: "Currency",
      processingFee: "Processing Fee",
      donatedAt: "Donation Date",
      frequency: "Recurring Donation",
      message: "Comment",
      region: "State / Province",
      emailOptIn: "Join Mailing List",
      transactionId: "Stripe Charge Id",
      donorExternalId: "Donor Id",
    });
    // First and last name columns: the full "Name" column (an anonymous label here) is left out.
    expect(by.name).toBeUndefined();
    expect(detectSource(readShape(donorbox).headers)?.label).toBe("Donorbox");
  });

  it("Bloomerang constituents and transactions", () => {
    expect(mapped("donors", bloomerangConstituents).by).toMatchObject({
      donorExternalId: "Account Number",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email Address",
      phone: "Phone Number",
      addressLine1: "Street",
      postalCode: "Zip Code",
      emailOptIn: "Email Opt In",
    });
    const t = mapped("donations", bloomerangTransactions).by;
    // "Campaign" beats "Fund" though Fund comes first: an earlier synonym of the field wins.
    expect(t).toMatchObject({
      donorExternalId: "Account Number",
      name: "Name",
      giftExternalId: "Transaction Number",
      donatedAt: "Date",
      amount: "Amount",
      paymentMethod: "Method",
      campaign: "Campaign",
      internalNote: "Note",
    });
    expect(detectSource(readShape(bloomerangConstituents).headers)?.label).toBe("Bloomerang");
  });

  it("Stripe payments", () => {
    const { by } = mapped("donations", stripe);
    expect(by).toMatchObject({
      transactionId: "id",
      donatedAt: "Created (UTC)",
      amount: "Amount",
      refundedAmount: "Amount Refunded",
      currency: "Currency",
      processingFee: "Fee",
      mode: "Mode",
      status: "Status",
      donorExternalId: "Customer ID",
      email: "Customer Email",
      name: "Card Name",
      addressLine1: "Card Address Line1",
      city: "Card Address City",
      region: "Card Address State",
      country: "Card Address Country",
      postalCode: "Card Address Zip",
    });
    expect(detectSource(readShape(stripe).headers)?.label).toBe("Stripe");
  });

  it("Salesforce NPSP", () => {
    const { by } = mapped("donations", npsp);
    expect(by).toMatchObject({
      giftExternalId: "Opportunity ID",
      firstName: "Contact: First Name",
      lastName: "Contact: Last Name",
      email: "Contact: Email",
      addressLine1: "Mailing Street",
      city: "Mailing City",
      region: "Mailing State/Province",
      postalCode: "Mailing Zip/Postal Code",
      country: "Mailing Country",
      amount: "Amount",
      donatedAt: "Close Date",
      status: "Stage",
      campaign: "Primary Campaign Source",
      paymentMethod: "Payment Method",
    });
    expect(detectSource(readShape(npsp).headers)?.label).toBe("Salesforce NPSP");
  });

  it("Open Collective", () => {
    const { by } = mapped("donations", opencollective);
    expect(by).toMatchObject({
      donatedAt: "datetime",
      transactionId: "id",
      amount: "amount",
      processingFee: "paymentProcessorFee",
      currency: "currency",
      campaign: "accountName",
      donorExternalId: "oppositeAccountSlug",
      name: "oppositeAccountName",
      email: "oppositeAccountEmail",
      gateway: "paymentMethodService",
      paymentMethod: "paymentMethodType",
      message: "orderMemo",
    });
    expect(detectSource(readShape(opencollective).headers)?.label).toBe("Open Collective");
  });

  it("CiviCRM", () => {
    const { by } = mapped("donations", civicrm);
    expect(by).toMatchObject({
      donorExternalId: "Contact ID",
      giftExternalId: "Contribution ID",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email",
      addressLine1: "Street Address",
      amount: "Total Amount",
      currency: "Currency",
      donatedAt: "Date Received",
      status: "Contribution Status",
      paymentMethod: "Payment Method",
      transactionId: "Transaction ID",
      campaign: "Campaign",
    });
    expect(by.name).toBeUndefined();
    expect(detectSource(readShape(civicrm).headers)?.label).toBe("CiviCRM");
  });

  it("maps only the kind's fields, each once, and recognizes no system in a plain file", () => {
    const { by, m } = mapped("donors", givewp);
    expect(by.amount).toBeUndefined();
    expect(by.giftExternalId).toBeUndefined();
    expect(new Set(m.filter(Boolean)).size).toBe(m.filter(Boolean).length);
    expect(detectSource(["Name", "Email", "Amount", "Date"])).toBeNull();
  });
});

describe("saved mappings", () => {
  it("apply by header name, whatever the column order, and ignore what the kind lacks", () => {
    const headers = ["Email", "Gift", "When", "Extra"];
    const saved = mappingToSave(headers, ["email", "amount", "donatedAt", null]);
    expect(saved).toEqual({ email: "email", gift: "amount", when: "donatedAt" });
    expect(applySavedMapping("donations", ["WHEN", "e-mail", "Gift", "Email"], saved)).toEqual([
      "donatedAt",
      null,
      "amount",
      "email",
    ]);
    expect(applySavedMapping("donors", ["When", "Gift", "Email"], saved)).toEqual([null, null, "email"]);
    expect(normalizeHeader("\uFEFFDonor  E-mail (primary)")).toBe("donor e mail primary");
  });
});
