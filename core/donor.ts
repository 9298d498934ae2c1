/**
 * Donors as both sides know them (docs/decisions/022-one-shared-core.md): the donor types of the
 * list filter and the donor form's schema, which is the input of donors.create and donors.update
 * (worker/donors/router.ts) and what the form under src/features/donors/ validates before sending.
 */
// zod/mini, like core/organization.ts: the browser loads it (decision 012). Each schema is built in
// a pure closure, so a chunk that takes only the donor types does not build the form schema.
import { z } from "zod/mini";

// The two vocabularies live in ./donor-types.ts, where the list's URL schema takes them without
// this module's form schema (the portal's entry chunk: docs/decisions/012-client-js-budgets.md).
import { donorKinds } from "./donor-types";

export { type DonorType, donorKinds, donorTypes } from "./donor-types";

/** Optional text: trimmed, at most `max` characters, null or absent. */
const text = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));

export const donorInput = /* @__PURE__ */ (() => {
  const emailAddress = z.email();
  return z
    .strictObject({
      type: z._default(z.enum(donorKinds), "individual"),
      firstName: text(100),
      lastName: text(100),
      company: text(200),
      // Stored lower-case (the donor_email_lower rule): one address, whatever case it was typed in.
      // One check, not a union of "an address" and "": a union that fails answers only "Invalid
      // input", and the form would show that instead of this message.
      email: z.optional(
        z.nullable(
          z.pipe(
            z
              .string()
              .check(
                z.refine(
                  (e) => e === "" || emailAddress.safeParse(e).success,
                  "Enter a valid e-mail address",
                ),
              ),
            z.transform((e: string) => e.toLowerCase()),
          ),
        ),
      ),
      phone: text(40),
      addressLine1: text(200),
      city: text(100),
      region: text(100),
      postalCode: text(20),
      country: z.union([z.optional(z.nullable(z.string().check(z.trim(), z.length(2)))), z.literal("")]),
      emailOptIn: z._default(z.boolean(), false),
      phoneOptIn: z._default(z.boolean(), false),
      mailOptIn: z._default(z.boolean(), false),
      externalId: text(100),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.type === "individual" && !v.firstName && !v.lastName)
          ctx.issues.push({ code: "custom", path: ["lastName"], message: "Enter a name", input: v });
        if (v.type === "organization" && !v.company)
          ctx.issues.push({
            code: "custom",
            path: ["company"],
            message: "Enter the organization's name",
            input: v,
          });
      }),
    );
})();

/** The form's value as the user gives it (optional fields may be absent). */
export type DonorFormInput = z.input<typeof donorInput>;
/** The parsed value: trimmed, the e-mail lower-cased, the consents defaulted. */
export type DonorInput = z.output<typeof donorInput>;
