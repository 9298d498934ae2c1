/**
 * Thank-you templates (issue 25): what the schema refuses, and how a template renders with a
 * gift's values — escaped, tidy where a value is missing, the subject on one line.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_THANK_YOU,
  emptyFieldWarnings,
  mergeFieldProblem,
  renderThankYou,
  sampleThankYouData,
  THANK_YOU_FIELDS,
  type ThankYouData,
  thankYouDonorName,
  thankYouTemplateInput,
} from "./thanks";

const data = (over: Partial<{ [K in keyof ThankYouData]: Partial<ThankYouData[K]> }> = {}): ThankYouData => {
  const base: ThankYouData = {
    donor: { firstName: "Ada", lastName: "Lovelace", name: "Ada Lovelace", company: "" },
    gift: { amount: "$50.00", date: "March 14, 2026", number: "7", method: "Card" },
    campaign: { title: "Winter Coats" },
    organization: { name: "Harbor Light" },
    receipt: { number: "R-000042" },
    tribute: { name: "" },
  };
  for (const [k, v] of Object.entries(over)) Object.assign(base[k as keyof ThankYouData], v);
  return base;
};

const issues = (input: unknown) => {
  const r = thankYouTemplateInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("thank-you template input", () => {
  it("takes every listed merge field, trims, and keeps campaignId null for the organization's own", () => {
    const body = THANK_YOU_FIELDS.map((f) => `{{${f.key}}}`).join(" ");
    const r = thankYouTemplateInput.parse({
      campaignId: null,
      subject: "  Thanks {{ donor.firstName }} ",
      body,
    });
    expect(r).toEqual({ campaignId: null, subject: "Thanks {{ donor.firstName }}", body });
    expect(thankYouTemplateInput.parse({ ...DEFAULT_THANK_YOU, campaignId: "c1" }).campaignId).toBe("c1");
  });

  it("refuses unknown merge fields, naming them", () => {
    expect(issues({ campaignId: null, subject: "Hi", body: "Dear {{donor.nickname}}," })).toEqual([
      "body: Unknown merge field {{donor.nickname}}",
    ]);
    expect(issues({ campaignId: null, subject: "Hi {{gift.total}}", body: "{{a}} {{b}} {{a}}" })).toEqual([
      "subject: Unknown merge field {{gift.total}}",
      "body: Unknown merge fields {{a}} and {{b}}",
    ]);
    expect(mergeFieldProblem("Dear {{donor.firstname}}")).toBe(
      "Unknown merge field {{donor.firstname}} (did you mean {{donor.firstName}}?)",
    );
    expect(mergeFieldProblem("{{}}")).toBe("Unknown merge field {{}}");
  });

  it("refuses unbalanced braces, and leaves single braces alone", () => {
    for (const body of [
      "Dear {{donor.firstName}",
      "Dear {{donor.firstName",
      "Dear donor.firstName}}",
      "{{ {{x}}",
    ])
      expect(mergeFieldProblem(body), body).toMatch(/^(Unbalanced braces|Unknown merge field)/);
    expect(mergeFieldProblem("Dear {{donor.firstName}")).toMatch(/^Unbalanced braces/);
    expect(mergeFieldProblem("A set {a, b} and {{donor.name}}")).toBeNull();
  });

  it("refuses empty or too long texts, a subject on two lines and unknown keys", () => {
    expect(issues({ campaignId: null, subject: "   ", body: "x" })).toEqual(["subject: Write a subject"]);
    expect(issues({ campaignId: null, subject: "x", body: "\n \n" })).toEqual(["body: Write the message"]);
    expect(issues({ campaignId: null, subject: "x".repeat(201), body: "x" })).toEqual([
      "subject: At most 200 characters",
    ]);
    expect(issues({ campaignId: null, subject: "x", body: "x".repeat(10_001) })).toEqual([
      "body: At most 10000 characters",
    ]);
    expect(issues({ campaignId: null, subject: "a\nb", body: "x" })).toEqual([
      "subject: The subject is a single line",
    ]);
    expect(issues({ campaignId: null, subject: "x", body: "x", extra: 1 })).toHaveLength(1);
    expect(issues({ subject: "x", body: "x" })).toHaveLength(1);
    expect(issues({ campaignId: "", subject: "x", body: "x" })).toHaveLength(1);
  });

  it("gives a default that is itself valid and uses only known fields", () => {
    expect(issues({ campaignId: null, ...DEFAULT_THANK_YOU })).toEqual([]);
  });
});

describe("renderThankYou", () => {
  it("fills the fields, keeps paragraphs and line breaks, and puts the subject on one line", () => {
    const out = renderThankYou(
      {
        subject: "Thank you, {{donor.firstName}}",
        body: "Dear {{donor.name}},\r\n\r\nYour gift of {{gift.amount}} to {{campaign.title}} (#{{gift.number}}).\nReceipt {{receipt.number}}.\n\n\n\nWith thanks,\n{{organization.name}}",
      },
      data(),
    );
    expect(out.subject).toBe("Thank you, Ada");
    expect(out.text).toBe(
      "Dear Ada Lovelace,\n\nYour gift of $50.00 to Winter Coats (#7).\nReceipt R-000042.\n\nWith thanks,\nHarbor Light",
    );
    expect(out.html).toBe(
      "<p>Dear Ada Lovelace,</p>\n<p>Your gift of $50.00 to Winter Coats (#7).<br>\nReceipt R-000042.</p>\n<p>With thanks,<br>\nHarbor Light</p>",
    );
  });

  it("escapes every value and the template's own text in the HTML, never in the plain text", () => {
    const evil = data({
      donor: { firstName: "<script>alert(1)</script>", name: '"O\'Brien" & <b>Co</b>' },
      campaign: { title: "<img src=x onerror=alert(1)>" },
    });
    const out = renderThankYou(
      { subject: "Hi {{donor.firstName}}", body: "Dear {{donor.name}} <i>friend</i>\n\n{{campaign.title}}" },
      evil,
    );
    expect(out.html).not.toMatch(/<(script|img|b|i)[\s>]/);
    expect(out.html).toBe(
      "<p>Dear &quot;O&#39;Brien&quot; &amp; &lt;b&gt;Co&lt;/b&gt; &lt;i&gt;friend&lt;/i&gt;</p>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>",
    );
    expect(out.subject).toBe("Hi <script>alert(1)</script>");
    expect(out.text).toContain("<img src=x onerror=alert(1)>");
  });

  it("keeps a value's line breaks out of the subject and the body's layout", () => {
    const out = renderThankYou(
      { subject: "For {{campaign.title}}", body: "{{donor.name}}" },
      data({ campaign: { title: "Winter\r\nCoats\u0000" }, donor: { name: "Ada\n\nBcc: x@y" } }),
    );
    expect(out.subject).toBe("For Winter Coats");
    expect(out.text).toBe("Ada Bcc: x@y");
  });

  it("prints nothing for missing values, tidying the spaces and punctuation around them", () => {
    const none = data({
      donor: { firstName: "", lastName: "", name: "" },
      campaign: { title: "" },
      tribute: { name: "" },
    });
    const r = (body: string) => renderThankYou({ subject: "s", body }, none).text;
    expect(r("Dear {{donor.firstName}},")).toBe("Dear,");
    expect(r("Dear {{donor.firstName}} {{donor.lastName}},")).toBe("Dear,");
    expect(r("Thank you, {{donor.firstName}}!")).toBe("Thank you!");
    expect(r("Thank you, {{donor.firstName}}")).toBe("Thank you");
    // Inside a sentence, a missing value would break it: the line is left out (M16).
    expect(r("Your gift to {{campaign.title}} helps.")).toBe("");
    expect(r("Dear {{donor.firstName}},\n\nThank you.\nP.S. Your gift to {{campaign.title}}\nBye")).toBe(
      "Dear,\n\nThank you.\nBye",
    );
    expect(r("In memory of {{tribute.name}}, we planted a tree.\n\nThanks!")).toBe("Thanks!");
    expect(r("{{donor.firstName}} thank you")).toBe("");
    // A name that opens the line before a comma goes with its comma.
    expect(r("{{donor.firstName}}, thank you!")).toBe("Thank you!");
    // Spaces the template wrote itself stay (French puts one before "!").
    expect(r("Merci {{donor.firstName}} !")).toBe("Merci !");
    expect(r("Merci  beaucoup !")).toBe("Merci  beaucoup !");
    // A paragraph of nothing but missing values goes.
    expect(r("Hello\n\n{{tribute.name}}\n\nBye")).toBe("Hello\n\nBye");
    expect(renderThankYou({ subject: "Thanks, {{donor.firstName}}!", body: "x" }, none).subject).toBe(
      "Thanks!",
    );
    // The subject is one line: tidied, never left out.
    expect(renderThankYou({ subject: "Your gift to {{campaign.title}}", body: "x" }, none).subject).toBe(
      "Your gift to",
    );
  });

  it("prints nothing for a field it does not know (a template saved before a rename)", () => {
    expect(renderThankYou({ subject: "s", body: "Hi {{donor.nickname}}, welcome" }, data()).text).toBe(
      "Hi, welcome",
    );
  });

  it("renders the default with the sample gift in the organization's currency", () => {
    const out = renderThankYou(DEFAULT_THANK_YOU, sampleThankYouData("Fondation Lumière", "EUR"));
    expect(out.subject).toBe("Thank you for your gift to Fondation Lumière");
    expect(out.text).toContain("Dear Ada Lovelace,");
    expect(out.text).toContain("€50.00");
    expect(out.text).not.toMatch(/\{\{|\}\}/);
    expect(sampleThankYouData("X", "JPY").gift.amount).toBe("¥5,000");
  });

  it("names a donor by first and last name, else the company", () => {
    expect(thankYouDonorName({ firstName: " Ada ", lastName: "Lovelace" })).toBe("Ada Lovelace");
    expect(thankYouDonorName({ firstName: null, lastName: null, company: "Acme" })).toBe("Acme");
    expect(thankYouDonorName({})).toBe("");
  });

  it("previews a general-fund gift too, and warns where a template uses a field that can be empty", () => {
    const template = {
      subject: "Thank you, {{donor.firstName}}",
      body: "Dear {{donor.name}},\n\nP.S. Your gift to {{campaign.title}} keeps someone warm.",
    };
    expect(renderThankYou(template, sampleThankYouData("Harbor Light", "USD")).text).toContain(
      "P.S. Your gift to Winter Coats keeps someone warm.",
    );
    expect(renderThankYou(template, sampleThankYouData("Harbor Light", "USD", "general")).text).toBe(
      "Dear Ada Lovelace,",
    );
    expect(emptyFieldWarnings(template)).toEqual([
      "{{donor.firstName}} is empty for a donor recorded by company name only: a sentence that needs it is left out of that message.",
      "{{campaign.title}} is empty for a general-fund donation: a sentence that needs it is left out of that message.",
    ]);
    expect(emptyFieldWarnings(DEFAULT_THANK_YOU)).toEqual([]);
  });
});
