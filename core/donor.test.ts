import { describe, expect, it } from "vitest";
import { donorInput } from "./donor";

describe("the donor form's schema (core/donor.ts)", () => {
  const person = { firstName: "Ada", lastName: "Lovelace" };

  it("names a bad e-mail address as such, on the e-mail field", () => {
    const r = donorInput.safeParse({ ...person, email: "not-an-address" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["email", "Enter a valid e-mail address"],
    ]);
  });

  it("stores an address lower-case and takes an empty or absent one as none", () => {
    expect(donorInput.parse({ ...person, email: "Ada@Example.ORG" }).email).toBe("ada@example.org");
    expect(donorInput.parse({ ...person, email: "" }).email).toBe("");
    expect(donorInput.parse({ ...person, email: null }).email).toBeNull();
    expect(donorInput.parse(person).email).toBeUndefined();
  });

  it("asks an individual for a name", () => {
    const r = donorInput.safeParse({ email: "a@example.org" });
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["lastName", "Enter a name"]]);
  });
});
