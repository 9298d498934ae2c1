import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { campaignsSearch } from "~/features/campaigns/search";
import { activeFilterCount, donationFilters, exportUrl } from "~/features/donations/filters";
import { donationSearch } from "~/features/donations/search";
import { donorsSearch } from "~/features/donors/search";
import { planSearch } from "~/features/plans/search";
import { reportsSearch } from "~/features/reports/search";
import { facetParam, listSearch, listSearchWith, searchDefaults, withDefault } from "~/lib/search-params";

describe("URL search schemas (zod/mini): stale or hand-edited links fall back, never error", () => {
  it("fills list defaults and replaces malformed paging values", () => {
    expect(listSearch.parse({})).toEqual({ page: 1, pageSize: 25, desc: true });
    expect(listSearch.parse({ page: 0, pageSize: 30, desc: "yes" })).toEqual({
      page: 1,
      pageSize: 25,
      desc: true,
    });
    expect(listSearch.parse({ page: 2.5 }).page).toBe(1);
    expect(listSearch.parse({ page: 3, pageSize: 100, desc: false, q: "ada" })).toEqual({
      page: 3,
      pageSize: 100,
      desc: false,
      q: "ada",
    });
  });

  it("whitelists sorts and facets", () => {
    const s = listSearchWith(["created", "name"], "created", { status: facetParam(["active", "paused"]) });
    expect(s.parse({}).sort).toBe("created");
    expect(s.parse({ sort: "name" }).sort).toBe("name");
    expect(s.parse({ sort: "password_hash" }).sort).toBe("created");
    expect(s.parse({ status: ["active"] }).status).toEqual(["active"]);
    expect(s.parse({ status: ["active", "deleted"] }).status).toBeUndefined();
    expect(s.parse({ status: "active" }).status).toBeUndefined();
    expect(withDefault(z.int(), 30).parse("x")).toBe(30);
  });

  it("donations: a bad filter drops that filter only", () => {
    const s = donationSearch.parse({
      status: ["completed", "nope"],
      from: "2026-13-45x",
      to: "2026-11-01",
      currency: "EURO",
      minAmountMinor: -5,
      maxAmountMinor: 500,
      frequency: "weekly",
      mode: "live",
      sort: "amount",
      trashed: "true",
      campaignId: "c".repeat(65),
    });
    expect(s).toMatchObject({ to: "2026-11-01", maxAmountMinor: 500, mode: "live", sort: "amount" });
    for (const k of ["status", "from", "currency", "minAmountMinor", "frequency", "trashed", "campaignId"])
      expect(s).not.toHaveProperty(k, expect.anything());
    expect(donationSearch.parse({ sort: "donor.email" }).sort).toBe("date");
  });

  it("donations: live gifts unless asked, and live is not a filter someone set (issue 53, M18)", () => {
    const none = donationSearch.parse({});
    expect(none.mode).toBe("live");
    expect(donationFilters(none).mode).toBe("live");
    expect(activeFilterCount(none)).toBe(0);
    expect(exportUrl(none)).toBe("/api/export/donations.csv?mode=live");
    const all = donationSearch.parse({ mode: "all" });
    expect(donationFilters(all).mode).toBeUndefined();
    expect(activeFilterCount(all)).toBe(1);
    expect(exportUrl(all)).toBe("/api/export/donations.csv");
    const test = donationSearch.parse({ mode: "test" });
    expect([donationFilters(test).mode, activeFilterCount(test)]).toEqual(["test", 1]);
    // An unknown mode falls back to live, never to every gift.
    expect(donationSearch.parse({ mode: "both" }).mode).toBe("live");
  });

  it("donors: ids, types, day ranges and amounts are bounded", () => {
    const s = donorsSearch.parse({
      tagId: "",
      tierId: "t1",
      donorType: "repeat",
      type: "robot",
      lastGiftFrom: "2026-01-01",
      minLifetimeMinor: Number.MAX_SAFE_INTEGER + 2,
      emailOptIn: false,
    });
    expect(s).toMatchObject({
      tierId: "t1",
      donorType: "repeat",
      lastGiftFrom: "2026-01-01",
      emailOptIn: false,
    });
    expect(s.tagId).toBeUndefined();
    expect(s.type).toBeUndefined();
    expect(s.minLifetimeMinor).toBeUndefined();
    expect(s.sort).toBe("created");
  });

  it("names each schema's defaults, which the routes keep out of the URL (stripDefaults)", () => {
    // A default missing here would be written into every link after a filter change; an optional
    // filter here would be dropped from the URL whenever it is chosen.
    expect(searchDefaults(donorsSearch)).toEqual({ page: 1, pageSize: 25, desc: true, sort: "created" });
    expect(searchDefaults(reportsSearch)).toEqual({
      page: 1,
      pageSize: 25,
      desc: true,
      view: "giving",
      basis: "calendar",
      kind: "lybunt",
      align: "start",
    });
    expect(
      searchDefaults(z.object({ days: withDefault(z.int(), 30), from: z.optional(z.string()) })),
    ).toEqual({
      days: 30,
    });
    // stripDefaults compares with ===: a default that is an array or object would never be stripped.
    for (const schema of [donorsSearch, donationSearch, planSearch, campaignsSearch, reportsSearch])
      for (const value of Object.values(searchDefaults(schema)))
        expect(["string", "number", "boolean"]).toContain(typeof value);
  });
});
