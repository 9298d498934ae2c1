/**
 * Receipt settings (issue 25, decision 031) on real D1: the defaults before anything is saved,
 * what owners and admins save (and its audit row), what the form's own schema refuses, who may
 * read and change them, and one organization's settings never showing in another's.
 */
import { DEFAULT_RECEIPT_SETTINGS, formatReceiptNumber } from "@core/receipts";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";

const saved = {
  signatoryName: "Ada Lovelace",
  signatoryTitle: "Treasurer",
  taxStatement: "No goods or services were provided in exchange for this gift.",
  numberPrefix: "HL-2026/",
  language: "fr" as const,
  autoSend: true,
};

describe("receipt settings", () => {
  it("start from the defaults, and read back what an owner saved, with who changed what in the audit log", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    expect(await caller.receipts.settings()).toEqual({ ...DEFAULT_RECEIPT_SETTINGS, updatedAt: null });

    const out = await caller.receipts.updateSettings(saved);
    expect(out).toMatchObject(saved);
    expect(await caller.receipts.settings()).toEqual({ ...saved, updatedAt: out.updatedAt });

    // Blank texts are "not set" (the receipt leaves the line out), not empty strings.
    await caller.receipts.updateSettings({ ...saved, signatoryTitle: "   ", taxStatement: "" });
    expect(await caller.receipts.settings()).toMatchObject({ signatoryTitle: null, taxStatement: null });

    const audit = await testEnv.DB.prepare(
      "SELECT before, after FROM audit_event WHERE organization_id = ? AND action = 'receipts.settings' ORDER BY at, rowid",
    )
      .bind(org)
      .all<{ before: string; after: string }>();
    expect(audit.results).toHaveLength(2);
    expect(JSON.parse(audit.results[0]?.before as string)).toMatchObject({ language: "en", autoSend: false });
    expect(JSON.parse(audit.results[1]?.after as string)).toMatchObject({
      signatoryTitle: null,
      language: "fr",
    });
  });

  it("refuse a prefix that is not letters, digits and - _ / ., a long one, an unknown language, writing nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.receipts.updateSettings(saved);
    for (const bad of [
      { numberPrefix: "R 1" },
      { numberPrefix: "R-<b>" },
      { numberPrefix: "ABCDEFGHIJKLM" },
      { language: "xx" },
      { taxStatement: "x".repeat(2001) },
      { autoSend: "yes" },
    ])
      expect(
        await codeOf(caller.receipts.updateSettings({ ...saved, ...bad } as never)),
        JSON.stringify(bad),
      ).toBe("BAD_REQUEST");
    expect(await caller.receipts.settings()).toMatchObject(saved);
  });

  it("are changed by owners and admins only, read by everyone in the organization, and by no one outside it", async () => {
    const org = await makeOrg();
    const other = await makeOrg();
    const admin = await member(org, "admin");
    expect(await codeOf(admin.caller.receipts.updateSettings(saved))).toBe("OK");
    for (const role of ["organizer", "viewer"] as const) {
      const m = await member(org, role);
      expect(await m.caller.receipts.settings(), role).toMatchObject({ numberPrefix: "HL-2026/" });
      expect(await codeOf(m.caller.receipts.updateSettings({ ...saved, numberPrefix: "X" })), role).toBe(
        "FORBIDDEN",
      );
    }
    const outsider = await member(other, "owner");
    expect(await outsider.caller.receipts.settings()).toMatchObject({ numberPrefix: "", updatedAt: null });
  });

  it("print numbers as the prefix and six digits, never cut", () => {
    expect(formatReceiptNumber("R-", 42)).toBe("R-000042");
    expect(formatReceiptNumber("", 1)).toBe("000001");
    expect(formatReceiptNumber("HL/", 1_234_567)).toBe("HL/1234567");
  });
});
