// An organization's ownership and its end (decisions 046, 047), in the directory (decision 027). One open
// offer per organization; a deletion's row is the purge's queue and, with no foreign key, outlives it.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organization, user } from "./schema";

export const ownershipOffer = sqliteTable(
  "ownership_offer",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    fromUserId: text("from_user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    toUserId: text("to_user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** What the offering owner becomes when the offer is accepted: still an owner, or an admin. */
    fromBecomes: text("from_becomes").notNull(),
    /** open → accepted | declined | withdrawn | expired */
    status: text("status").notNull().default("open"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("ownership_offer_one_open").on(t.organizationId).where(sql`status = 'open'`),
    index("ownership_offer_to_idx").on(t.toUserId, t.status),
    check("ownership_offer_from_becomes", sql`${t.fromBecomes} in ('owner','admin')`),
    check(
      "ownership_offer_status_valid",
      sql`${t.status} in ('open','accepted','declined','withdrawn','expired')`,
    ),
    check("ownership_offer_not_self", sql`${t.fromUserId} != ${t.toUserId}`),
  ],
);

export const organizationDeletion = sqliteTable(
  "organization_deletion",
  {
    /** No foreign key: the organization's row is purged, this one stays. */
    organizationId: text("organization_id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    requestedBy: text("requested_by"),
    requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
    /** Set when nothing of the organization is left in any database. */
    purgedAt: integer("purged_at", { mode: "timestamp_ms" }),
    purgedRows: integer("purged_rows").notNull().default(0),
  },
  (t) => [index("organization_deletion_pending_idx").on(t.purgedAt)],
);
