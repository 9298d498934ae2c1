import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { COUNTED_SQL } from "../../domain/status";
import { auditStatement } from "../../lib/audit";
import { add, likeEscape, pageSchema, runList, where } from "../../lib/list";
import { donorStatsStatements, tierStatement } from "../../services/donor-stats";
import { fail, orgProcedure, router } from "../init";

export const donorInput = z
  .object({
    type: z.enum(["individual", "organization"]).default("individual"),
    firstName: z.string().trim().max(100).optional().nullable(),
    lastName: z.string().trim().max(100).optional().nullable(),
    company: z.string().trim().max(200).optional().nullable(),
    email: z
      .union([z.email("Enter a valid e-mail address").transform((e) => e.toLowerCase()), z.literal("")])
      .optional()
      .nullable(),
    phone: z.string().trim().max(40).optional().nullable(),
    addressLine1: z.string().trim().max(200).optional().nullable(),
    city: z.string().trim().max(100).optional().nullable(),
    region: z.string().trim().max(100).optional().nullable(),
    postalCode: z.string().trim().max(20).optional().nullable(),
    country: z.string().trim().length(2).optional().nullable().or(z.literal("")),
    emailOptIn: z.boolean().default(false),
    phoneOptIn: z.boolean().default(false),
    mailOptIn: z.boolean().default(false),
    externalId: z.string().trim().max(100).optional().nullable(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.type === "individual" && !v.firstName && !v.lastName)
      ctx.addIssue({ code: "custom", path: ["lastName"], message: "Enter a name" });
    if (v.type === "organization" && !v.company)
      ctx.addIssue({ code: "custom", path: ["company"], message: "Enter the organization's name" });
  });

export interface DonorRow {
  id: string;
  type: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  address_line1: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  email_opt_in: number;
  phone_opt_in: number;
  mail_opt_in: number;
  external_id: string | null;
  anonymized_at: number | null;
  merged_into_id: string | null;
  tier_id: string | null;
  previous_tier_id: string | null;
  tier_locked: number;
  lifetime_minor: number;
  donation_count: number;
  largest_gift_minor: number;
  first_gift_at: number | null;
  last_gift_at: number | null;
  created_at: number;
  tier_name?: string | null;
  tier_color?: string | null;
  tags?: string | null;
}

export function donorName(
  d: Pick<DonorRow, "first_name" | "last_name" | "company" | "email" | "anonymized_at">,
) {
  if (d.anonymized_at) return "Anonymized";
  const person = [d.first_name, d.last_name].filter(Boolean).join(" ");
  return person || d.company || d.email || "Unnamed donor";
}

function present(d: DonorRow) {
  return {
    id: d.id,
    name: donorName(d),
    type: d.type,
    firstName: d.first_name,
    lastName: d.last_name,
    company: d.company,
    email: d.email,
    phone: d.phone,
    addressLine1: d.address_line1,
    city: d.city,
    region: d.region,
    postalCode: d.postal_code,
    country: d.country,
    emailOptIn: !!d.email_opt_in,
    phoneOptIn: !!d.phone_opt_in,
    mailOptIn: !!d.mail_opt_in,
    externalId: d.external_id,
    anonymized: d.anonymized_at !== null,
    mergedIntoId: d.merged_into_id,
    tier: d.tier_id ? { id: d.tier_id, name: d.tier_name ?? "", color: d.tier_color ?? "#64748b" } : null,
    previousTierId: d.previous_tier_id,
    tierLocked: !!d.tier_locked,
    lifetimeMinor: d.lifetime_minor,
    donationCount: d.donation_count,
    largestGiftMinor: d.largest_gift_minor,
    averageGiftMinor: d.donation_count ? Math.round(d.lifetime_minor / d.donation_count) : 0,
    firstGiftAt: d.first_gift_at,
    lastGiftAt: d.last_gift_at,
    createdAt: d.created_at,
    tags: d.tags ? (JSON.parse(d.tags) as { id: string; name: string; color: string }[]) : [],
  };
}

const SELECT = `dn.*, t.name AS tier_name, t.color AS tier_color,
  (SELECT json_group_array(json_object('id', g.id, 'name', g.name, 'color', g.color)) FROM donor_tag_assignment a JOIN donor_tag g ON g.id = a.tag_id WHERE a.donor_id = dn.id) AS tags`;
const FROM = "donor dn LEFT JOIN donor_tier t ON t.id = dn.tier_id";

async function loadDonor(db: D1Database, orgId: string, id: string) {
  let row = await db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE dn.organization_id = ? AND dn.id = ?`)
    .bind(orgId, id)
    .first<DonorRow>();
  // A merged donor's id keeps resolving to the donor it was merged into.
  if (row?.merged_into_id)
    row = await db
      .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE dn.organization_id = ? AND dn.id = ?`)
      .bind(orgId, row.merged_into_id)
      .first<DonorRow>();
  if (!row) fail("NOT_FOUND", "Donor not found");
  return row;
}

const sorts = {
  name: "lower(COALESCE(dn.last_name, dn.company, dn.email))",
  created: "dn.created_at",
  lifetime: "dn.lifetime_minor",
  lastGift: "dn.last_gift_at",
} as const;

const tagInput = z.object({
  name: z.string().trim().min(1).max(40),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default("#0f766e"),
});

export const donorsRouter = router({
  list: orgProcedure({ donor: ["view"] })
    .input(
      z.object({
        ...pageSchema,
        sort: z.enum(Object.keys(sorts) as [keyof typeof sorts]).default("created"),
        tierId: z.string().optional(),
        tagId: z.string().optional(),
        type: z.enum(["individual", "organization"]).optional(),
        minLifetimeMinor: z.number().int().min(0).optional(),
        maxLifetimeMinor: z.number().int().min(0).optional(),
        emailOptIn: z.boolean().optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const w = where();
      add(w, "dn.organization_id = ?", ctx.org.id);
      add(w, "dn.merged_into_id IS NULL");
      if (input.q) {
        const p = likeEscape(input.q);
        add(
          w,
          "(lower(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')) LIKE ?1x ESCAPE '\\' OR dn.email LIKE ?1x ESCAPE '\\' OR lower(dn.company) LIKE ?1x ESCAPE '\\')".replaceAll(
            "?1x",
            "?",
          ),
          p,
          p,
          p,
        );
      }
      if (input.tierId) add(w, "dn.tier_id = ?", input.tierId);
      if (input.tagId)
        add(
          w,
          "EXISTS (SELECT 1 FROM donor_tag_assignment a WHERE a.donor_id = dn.id AND a.tag_id = ?)",
          input.tagId,
        );
      if (input.type) add(w, "dn.type = ?", input.type);
      if (input.minLifetimeMinor !== undefined) add(w, "dn.lifetime_minor >= ?", input.minLifetimeMinor);
      if (input.maxLifetimeMinor !== undefined) add(w, "dn.lifetime_minor <= ?", input.maxLifetimeMinor);
      if (input.emailOptIn !== undefined) add(w, "dn.email_opt_in = ?", input.emailOptIn ? 1 : 0);
      const res = await runList<DonorRow>(ctx.env.DB, {
        select: SELECT,
        from: FROM,
        where: w,
        orderBy: sorts[input.sort],
        desc: input.desc,
        page: input.page,
        pageSize: input.pageSize,
        tiebreak: "dn.id",
        totals: "COALESCE(SUM(dn.lifetime_minor), 0) AS lifetimeMinor",
      });
      return { ...res, rows: res.rows.map(present) };
    }),

  byId: orgProcedure({ donor: ["view"] })
    .input(z.object({ id: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const d = await loadDonor(ctx.env.DB, ctx.org.id, input.id);
      const { results: donations } = await ctx.env.DB.prepare(
        `SELECT d.id, d.number, d.amount_minor AS amountMinor, d.refunded_minor AS refundedMinor, d.currency, d.status, d.donated_at AS donatedAt, c.title AS campaign
           FROM donation d LEFT JOIN campaign c ON c.id = d.campaign_id WHERE d.donor_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC LIMIT 100`,
      )
        .bind(d.id)
        .all();
      return { ...present(d), donations };
    }),

  /** Duplicate check on e-mail and on name + postal code: answers with the match unless forced. */
  create: orgProcedure({ donor: ["create"] })
    .input(z.object({ data: donorInput, force: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const d = input.data;
      const email = d.email || null;
      if (email) {
        const dup = await ctx.env.DB.prepare("SELECT id FROM donor WHERE organization_id = ? AND email = ?")
          .bind(ctx.org.id, email)
          .first<{ id: string }>();
        if (dup) return { created: false as const, duplicate: { id: dup.id, reason: "email" as const } };
      }
      if (!input.force && d.lastName && d.postalCode) {
        const dup = await ctx.env.DB.prepare(
          "SELECT id FROM donor WHERE organization_id = ? AND lower(last_name) = lower(?) AND lower(COALESCE(first_name,'')) = lower(?) AND postal_code = ? AND merged_into_id IS NULL LIMIT 1",
        )
          .bind(ctx.org.id, d.lastName, d.firstName ?? "", d.postalCode)
          .first<{ id: string }>();
        if (dup)
          return { created: false as const, duplicate: { id: dup.id, reason: "name_postal_code" as const } };
      }
      const id = generateId();
      const now = Date.now();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `INSERT INTO donor (id, organization_id, type, first_name, last_name, company, email, phone, address_line1, city, region, postal_code, country,
               email_opt_in, phone_opt_in, mail_opt_in, external_id, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).bind(
          id,
          ctx.org.id,
          d.type,
          d.firstName || null,
          d.lastName || null,
          d.company || null,
          email,
          d.phone || null,
          d.addressLine1 || null,
          d.city || null,
          d.region || null,
          d.postalCode || null,
          d.country || null,
          d.emailOptIn ? 1 : 0,
          d.phoneOptIn ? 1 : 0,
          d.mailOptIn ? 1 : 0,
          d.externalId || null,
          ctx.user.id,
          now,
          now,
        ),
        tierStatement(ctx.env.DB, ctx.org.id, id),
        auditStatement(ctx, { action: "donor.create", entityType: "donor", entityId: id, after: d }),
      ]);
      return { created: true as const, id };
    }),

  update: orgProcedure({ donor: ["update"] })
    .input(z.object({ id: z.string().min(1), data: donorInput }))
    .mutation(async ({ ctx, input }) => {
      const before = await loadDonor(ctx.env.DB, ctx.org.id, input.id);
      if (before.anonymized_at) fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot be edited");
      const d = input.data;
      const email = d.email || null;
      if (email && email !== before.email) {
        const dup = await ctx.env.DB.prepare(
          "SELECT id FROM donor WHERE organization_id = ? AND email = ? AND id != ?",
        )
          .bind(ctx.org.id, email, before.id)
          .first();
        if (dup) fail("CONFLICT", "Another donor already has this e-mail", { field: "email" });
      }
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `UPDATE donor SET type = ?, first_name = ?, last_name = ?, company = ?, email = ?, phone = ?, address_line1 = ?, city = ?, region = ?, postal_code = ?, country = ?,
               email_opt_in = ?, phone_opt_in = ?, mail_opt_in = ?, external_id = ?, updated_at = ? WHERE id = ? AND organization_id = ?`,
        ).bind(
          d.type,
          d.firstName || null,
          d.lastName || null,
          d.company || null,
          email,
          d.phone || null,
          d.addressLine1 || null,
          d.city || null,
          d.region || null,
          d.postalCode || null,
          d.country || null,
          d.emailOptIn ? 1 : 0,
          d.phoneOptIn ? 1 : 0,
          d.mailOptIn ? 1 : 0,
          d.externalId || null,
          Date.now(),
          before.id,
          ctx.org.id,
        ),
        auditStatement(ctx, {
          action: "donor.update",
          entityType: "donor",
          entityId: before.id,
          before: present(before),
          after: d,
        }),
      ]);
      return { id: before.id };
    }),

  delete: orgProcedure({ donor: ["delete"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const d = await loadDonor(ctx.env.DB, ctx.org.id, input.id);
      const any = await ctx.env.DB.prepare(
        `SELECT 1 FROM donation d WHERE d.donor_id = ? AND d.status IN ('completed','partially_refunded','refunded','disputed') LIMIT 1`,
      )
        .bind(d.id)
        .first();
      if (any)
        fail(
          "UNPROCESSABLE_CONTENT",
          "This donor has completed donations and cannot be deleted. Anonymize the donor instead.",
          { allowed: ["anonymize"] },
        );
      await ctx.env.DB.batch([
        ctx.env.DB.prepare("DELETE FROM donor WHERE id = ? AND organization_id = ?").bind(d.id, ctx.org.id),
        auditStatement(ctx, {
          action: "donor.delete",
          entityType: "donor",
          entityId: d.id,
          before: present(d),
        }),
      ]);
      return { id: d.id };
    }),

  /** Irreversible: personal data goes, amounts, dates and campaigns stay. Confirmed by the e-mail. */
  anonymize: orgProcedure({ donor: ["delete"] })
    .input(z.object({ id: z.string().min(1), confirm: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const d = await loadDonor(ctx.env.DB, ctx.org.id, input.id);
      const expected = d.email ?? donorName(d);
      if (input.confirm.trim().toLowerCase() !== expected.toLowerCase())
        fail("BAD_REQUEST", "Type the donor's e-mail to confirm", { field: "confirm" });
      await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          `UPDATE donor SET first_name = NULL, last_name = NULL, company = NULL, email = NULL, phone = NULL, address_line1 = NULL, address_line2 = NULL, city = NULL, region = NULL,
               postal_code = NULL, external_id = NULL, email_opt_in = 0, phone_opt_in = 0, mail_opt_in = 0, anonymized_at = ?, updated_at = ? WHERE id = ?`,
        ).bind(Date.now(), Date.now(), d.id),
        ctx.env.DB.prepare("DELETE FROM donor_note WHERE donor_id = ?").bind(d.id),
        ctx.env.DB.prepare("UPDATE donation SET message = NULL, tribute_name = NULL WHERE donor_id = ?").bind(
          d.id,
        ),
        auditStatement(ctx, { action: "donor.anonymize", entityType: "donor", entityId: d.id }),
      ]);
      return { id: d.id };
    }),

  /** Merge `sourceId` into `targetId`: donations, notes and tags move; the source keeps a pointer. */
  merge: orgProcedure({ donor: ["update"] })
    .input(
      z.object({
        sourceId: z.string().min(1),
        targetId: z.string().min(1),
        dryRun: z.boolean().default(true),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if (input.sourceId === input.targetId) fail("BAD_REQUEST", "Choose two different donors");
      const source = await loadDonor(ctx.env.DB, ctx.org.id, input.sourceId);
      const target = await loadDonor(ctx.env.DB, ctx.org.id, input.targetId);
      const counts = await ctx.env.DB.batch([
        ctx.env.DB.prepare("SELECT count(*) AS n FROM donation WHERE donor_id = ?").bind(source.id),
        ctx.env.DB.prepare("SELECT count(*) AS n FROM donor_note WHERE donor_id = ?").bind(source.id),
        ctx.env.DB.prepare(
          "SELECT count(*) AS n FROM donor_tag_assignment WHERE donor_id = ? AND tag_id NOT IN (SELECT tag_id FROM donor_tag_assignment WHERE donor_id = ?)",
        ).bind(source.id, target.id),
      ]);
      const preview = {
        source: { id: source.id, name: donorName(source) },
        target: { id: target.id, name: donorName(target) },
        donations: ((counts[0]?.results[0] ?? { n: 0 }) as { n: number }).n,
        notes: ((counts[1]?.results[0] ?? { n: 0 }) as { n: number }).n,
        tags: ((counts[2]?.results[0] ?? { n: 0 }) as { n: number }).n,
      };
      if (input.dryRun) return { dryRun: true, ...preview };
      const now = Date.now();
      await ctx.env.DB.batch([
        ctx.env.DB.prepare("UPDATE donation SET donor_id = ?, updated_at = ? WHERE donor_id = ?").bind(
          target.id,
          now,
          source.id,
        ),
        ctx.env.DB.prepare("UPDATE donor_note SET donor_id = ? WHERE donor_id = ?").bind(
          target.id,
          source.id,
        ),
        ctx.env.DB.prepare(
          "INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT ?, tag_id, organization_id FROM donor_tag_assignment WHERE donor_id = ?",
        ).bind(target.id, source.id),
        ctx.env.DB.prepare("DELETE FROM donor_tag_assignment WHERE donor_id = ?").bind(source.id),
        ctx.env.DB.prepare(
          "UPDATE donor SET merged_into_id = ?, email = NULL, updated_at = ? WHERE id = ?",
        ).bind(target.id, now, source.id),
        ctx.env.DB.prepare("UPDATE donor SET email = COALESCE(email, ?) WHERE id = ?").bind(
          source.email,
          target.id,
        ),
        ...donorStatsStatements(ctx.env.DB, ctx.org.id, [target.id, source.id]),
        auditStatement(ctx, {
          action: "donor.merge",
          entityType: "donor",
          entityId: target.id,
          after: preview,
        }),
      ]);
      return { dryRun: false, ...preview };
    }),

  tags: router({
    list: orgProcedure({ tag: ["view"] }).query(async ({ ctx }) => {
      const { results } = await ctx.env.DB.prepare(
        "SELECT g.id, g.name, g.color, (SELECT count(*) FROM donor_tag_assignment a WHERE a.tag_id = g.id) AS donors FROM donor_tag g WHERE g.organization_id = ? ORDER BY lower(g.name)",
      )
        .bind(ctx.org.id)
        .all<{ id: string; name: string; color: string; donors: number }>();
      return results;
    }),
    create: orgProcedure({ tag: ["create"] })
      .input(tagInput)
      .mutation(async ({ ctx, input }) => {
        const id = generateId();
        try {
          await ctx.env.DB.batch([
            ctx.env.DB.prepare(
              "INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            ).bind(id, ctx.org.id, input.name, input.color, Date.now(), Date.now()),
            auditStatement(ctx, { action: "tag.create", entityType: "tag", entityId: id, after: input }),
          ]);
        } catch (e) {
          if (String(e).includes("UNIQUE"))
            fail("CONFLICT", "A tag with this name already exists", { field: "name" });
          throw e;
        }
        return { id };
      }),
    update: orgProcedure({ tag: ["update"] })
      .input(z.object({ id: z.string().min(1) }).extend(tagInput.shape))
      .mutation(async ({ ctx, input }) => {
        try {
          const r = await ctx.env.DB.prepare(
            "UPDATE donor_tag SET name = ?, color = ?, updated_at = ? WHERE id = ? AND organization_id = ?",
          )
            .bind(input.name, input.color, Date.now(), input.id, ctx.org.id)
            .run();
          if (!r.meta.changes) fail("NOT_FOUND", "Tag not found");
        } catch (e) {
          if (String(e).includes("UNIQUE"))
            fail("CONFLICT", "A tag with this name already exists", { field: "name" });
          throw e;
        }
        return { id: input.id };
      }),
    delete: orgProcedure({ tag: ["delete"] })
      .input(z.object({ id: z.string().min(1) }))
      .mutation(async ({ ctx, input }) => {
        const tag = await ctx.env.DB.prepare(
          "SELECT id, name, (SELECT count(*) FROM donor_tag_assignment WHERE tag_id = donor_tag.id) AS donors FROM donor_tag WHERE id = ? AND organization_id = ?",
        )
          .bind(input.id, ctx.org.id)
          .first<{ id: string; name: string; donors: number }>();
        if (!tag) fail("NOT_FOUND", "Tag not found");
        await ctx.env.DB.batch([
          ctx.env.DB.prepare("DELETE FROM donor_tag WHERE id = ?").bind(input.id),
          auditStatement(ctx, { action: "tag.delete", entityType: "tag", entityId: input.id, before: tag }),
        ]);
        return { id: input.id, donorsAffected: tag.donors };
      }),
    /** One call for row and bulk actions: add, remove or replace tags on many donors. */
    assign: orgProcedure({ tag: ["update"] })
      .input(
        z.object({
          donorIds: z.array(z.string().min(1)).min(1).max(500),
          tagIds: z.array(z.string().min(1)).max(50),
          mode: z.enum(["add", "remove", "replace"]),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        const donorIds = [...new Set(input.donorIds)];
        const tagIds = [...new Set(input.tagIds)];
        const [donors, tags] = await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            `SELECT count(*) AS n FROM donor WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))`,
          ).bind(ctx.org.id, JSON.stringify(donorIds)),
          ctx.env.DB.prepare(
            `SELECT count(*) AS n FROM donor_tag WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))`,
          ).bind(ctx.org.id, JSON.stringify(tagIds)),
        ]);
        if (((donors?.results[0] ?? { n: 0 }) as { n: number }).n !== donorIds.length)
          fail("NOT_FOUND", "Donor not found");
        if (((tags?.results[0] ?? { n: 0 }) as { n: number }).n !== tagIds.length)
          fail("NOT_FOUND", "Tag not found");
        const stmts: D1PreparedStatement[] = [];
        const dj = JSON.stringify(donorIds);
        const tj = JSON.stringify(tagIds);
        if (input.mode === "replace")
          stmts.push(
            ctx.env.DB.prepare(
              "DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT value FROM json_each(?))",
            ).bind(dj),
          );
        if (input.mode === "remove") {
          stmts.push(
            ctx.env.DB.prepare(
              "DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT value FROM json_each(?)) AND tag_id IN (SELECT value FROM json_each(?))",
            ).bind(dj, tj),
          );
        } else {
          stmts.push(
            ctx.env.DB.prepare(
              "INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT d.value, t.value, ? FROM json_each(?) d, json_each(?) t",
            ).bind(ctx.org.id, dj, tj),
          );
        }
        stmts.push(
          auditStatement(ctx, {
            action: `tag.${input.mode}`,
            entityType: "donor",
            entityId: donorIds.join(",").slice(0, 500),
            after: input,
          }),
        );
        await ctx.env.DB.batch(stmts);
        return { donors: donorIds.length };
      }),
  }),

  notes: router({
    list: orgProcedure({ note: ["view"] })
      .input(z.object({ donorId: z.string().min(1) }))
      .query(async ({ ctx, input }) => {
        await loadDonor(ctx.env.DB, ctx.org.id, input.donorId);
        const { results } = await ctx.env.DB.prepare(
          "SELECT n.id, n.body, n.visibility, n.pinned, n.created_at AS createdAt, n.author_id AS authorId, u.name AS author FROM donor_note n LEFT JOIN user u ON u.id = n.author_id WHERE n.donor_id = ? AND n.organization_id = ? ORDER BY n.pinned DESC, n.created_at DESC",
        )
          .bind(input.donorId, ctx.org.id)
          .all();
        return results as {
          id: string;
          body: string;
          visibility: string;
          pinned: number;
          createdAt: number;
          authorId: string;
          author: string | null;
        }[];
      }),
    create: orgProcedure({ note: ["create"] })
      .input(
        z.object({
          donorId: z.string().min(1),
          body: z.string().trim().min(1, "Write something").max(5000, "At most 5,000 characters"),
          visibility: z.enum(["internal", "shared"]).default("internal"),
          pinned: z.boolean().default(false),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        const d = await loadDonor(ctx.env.DB, ctx.org.id, input.donorId);
        const id = generateId();
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            "INSERT INTO donor_note (id, organization_id, donor_id, author_id, body, visibility, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          ).bind(
            id,
            ctx.org.id,
            d.id,
            ctx.user.id,
            input.body,
            input.visibility,
            input.pinned ? 1 : 0,
            Date.now(),
            Date.now(),
          ),
          auditStatement(ctx, {
            action: "note.create",
            entityType: "donor",
            entityId: d.id,
            after: { id, visibility: input.visibility },
          }),
        ]);
        return { id };
      }),
    update: orgProcedure({ note: ["update"] })
      .input(
        z.object({
          id: z.string().min(1),
          body: z.string().trim().min(1, "Write something").max(5000, "At most 5,000 characters").optional(),
          visibility: z.enum(["internal", "shared"]).optional(),
          pinned: z.boolean().optional(),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        const note = await ctx.env.DB.prepare(
          "SELECT id, donor_id, author_id FROM donor_note WHERE id = ? AND organization_id = ?",
        )
          .bind(input.id, ctx.org.id)
          .first<{ id: string; donor_id: string; author_id: string }>();
        if (!note) fail("NOT_FOUND", "Note not found");
        const orgAdmin = ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin";
        if (note.author_id !== ctx.user.id && !orgAdmin)
          fail("FORBIDDEN", "Only the author or an organization admin can edit this note");
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            "UPDATE donor_note SET body = COALESCE(?, body), visibility = COALESCE(?, visibility), pinned = COALESCE(?, pinned), updated_at = ? WHERE id = ?",
          ).bind(
            input.body ?? null,
            input.visibility ?? null,
            input.pinned === undefined ? null : input.pinned ? 1 : 0,
            Date.now(),
            note.id,
          ),
          auditStatement(ctx, {
            action: "note.update",
            entityType: "donor",
            entityId: note.donor_id,
            after: { id: note.id },
          }),
        ]);
        return { id: note.id };
      }),
    delete: orgProcedure({ note: ["delete"] })
      .input(z.object({ id: z.string().min(1) }))
      .mutation(async ({ ctx, input }) => {
        const note = await ctx.env.DB.prepare(
          "SELECT id, donor_id, author_id FROM donor_note WHERE id = ? AND organization_id = ?",
        )
          .bind(input.id, ctx.org.id)
          .first<{ id: string; donor_id: string; author_id: string }>();
        if (!note) fail("NOT_FOUND", "Note not found");
        const orgAdmin = ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin";
        if (note.author_id !== ctx.user.id && !orgAdmin)
          fail("FORBIDDEN", "Only the author or an organization admin can delete this note");
        await ctx.env.DB.batch([
          ctx.env.DB.prepare("DELETE FROM donor_note WHERE id = ?").bind(note.id),
          auditStatement(ctx, {
            action: "note.delete",
            entityType: "donor",
            entityId: note.donor_id,
            before: { id: note.id },
          }),
        ]);
        return { id: note.id };
      }),
  }),

  tiers: router({
    list: orgProcedure({ donor: ["view"] }).query(async ({ ctx }) => {
      const { results } = await ctx.env.DB.prepare(
        "SELECT t.id, t.name, t.basis, t.min_minor AS minMinor, t.max_minor AS maxMinor, t.color, (SELECT count(*) FROM donor d WHERE d.tier_id = t.id AND d.merged_into_id IS NULL) AS donors FROM donor_tier t WHERE t.organization_id = ? ORDER BY t.min_minor",
      )
        .bind(ctx.org.id)
        .all<{
          id: string;
          name: string;
          basis: string;
          minMinor: number;
          maxMinor: number | null;
          color: string;
          donors: number;
        }>();
      return results;
    }),
    create: orgProcedure({ organization: ["update"] })
      .input(
        z.object({
          name: z.string().trim().min(1).max(40),
          basis: z.enum(["lifetime", "rolling_12m"]).default("lifetime"),
          minMinor: z.number().int().min(0),
          maxMinor: z.number().int().positive().nullable(),
          color: z
            .string()
            .regex(/^#[0-9a-fA-F]{6}$/)
            .default("#64748b"),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        if (input.maxMinor !== null && input.maxMinor <= input.minMinor)
          fail("BAD_REQUEST", "The maximum must be above the minimum", { field: "maxMinor" });
        const overlap = await ctx.env.DB.prepare(
          "SELECT name FROM donor_tier WHERE organization_id = ? AND basis = ? AND min_minor < COALESCE(?, 9223372036854775807) AND COALESCE(max_minor, 9223372036854775807) > ?",
        )
          .bind(ctx.org.id, input.basis, input.maxMinor, input.minMinor)
          .first<{ name: string }>();
        if (overlap)
          fail("CONFLICT", `This range overlaps the tier "${overlap.name}"`, { field: "minMinor" });
        const id = generateId();
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            "INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          ).bind(
            id,
            ctx.org.id,
            input.name,
            input.basis,
            input.minMinor,
            input.maxMinor,
            input.color,
            Date.now(),
            Date.now(),
          ),
          tierStatement(ctx.env.DB, ctx.org.id, null),
          auditStatement(ctx, {
            action: "tier.create",
            entityType: "donor_tier",
            entityId: id,
            after: input,
          }),
        ]);
        return { id };
      }),
    delete: orgProcedure({ organization: ["update"] })
      .input(z.object({ id: z.string().min(1) }))
      .mutation(async ({ ctx, input }) => {
        const r = await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            "UPDATE donor SET tier_id = NULL WHERE tier_id = ? AND organization_id = ?",
          ).bind(input.id, ctx.org.id),
          ctx.env.DB.prepare("DELETE FROM donor_tier WHERE id = ? AND organization_id = ?").bind(
            input.id,
            ctx.org.id,
          ),
          tierStatement(ctx.env.DB, ctx.org.id, null),
          auditStatement(ctx, { action: "tier.delete", entityType: "donor_tier", entityId: input.id }),
        ]);
        if (!r[1]?.meta.changes) fail("NOT_FOUND", "Tier not found");
        return { id: input.id };
      }),
    setLock: orgProcedure({ donor: ["update"] })
      .input(
        z.object({
          donorId: z.string().min(1),
          locked: z.boolean(),
          tierId: z.string().nullable().optional(),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        const d = await loadDonor(ctx.env.DB, ctx.org.id, input.donorId);
        await ctx.env.DB.batch([
          ctx.env.DB.prepare(
            "UPDATE donor SET tier_locked = ?, tier_id = CASE WHEN ? THEN ? ELSE tier_id END WHERE id = ?",
          ).bind(input.locked ? 1 : 0, input.tierId !== undefined ? 1 : 0, input.tierId ?? null, d.id),
          tierStatement(ctx.env.DB, ctx.org.id, d.id),
          auditStatement(ctx, {
            action: "donor.tier_lock",
            entityType: "donor",
            entityId: d.id,
            after: input,
          }),
        ]);
        return { id: d.id };
      }),
  }),
});

export { COUNTED_SQL };
