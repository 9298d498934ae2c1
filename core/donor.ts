/** The donor form's schema, shared by the form and donors.create/update (decision 022). */
// zod/mini in a pure closure; the types live in ./donor-types.ts for the entry chunk (decision 012).
import { z } from "zod/mini";

import { donorKinds } from "./donor-types";

export { type DonorType, donorKinds, donorTypes } from "./donor-types";

const text = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));

export const donorInput = /* @__PURE__ */ (() => {
  const emailAddress = z.email();
  return z
    .strictObject({
      type: z._default(z.enum(donorKinds), "individual"),
      firstName: text(100),
      lastName: text(100),
      company: text(200),
      // Lower-cased (donor_email_lower). One refine, not a union: a failed union says only "Invalid input".
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

export type DonorFormInput = z.input<typeof donorInput>;
export type DonorInput = z.output<typeof donorInput>;
