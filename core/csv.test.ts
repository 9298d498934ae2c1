/**
 * core/csv.ts's fast paths against plain reference implementations: the same cells for any value, the
 * same ISO strings for any instant in any zone, across DST and :30 and :45 offsets.
 */
import { describe, expect, it } from "vitest";
import { csvCell, isoUtc, isoWithOffset } from "./csv";

function referenceCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  let s = value instanceof Date ? value.toISOString() : String(value);
  const signedData = /^[+-][0-9 .()-]*[0-9][0-9 .()-]*$/.test(s);
  if (/^[=@\t\r\0]/.test(s) || (/^[+-]/.test(s) && !signedData)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function referenceIso(ms: number | null | undefined, timeZone = "UTC"): string {
  if (ms === null || ms === undefined) return "";
  const d = new Date(ms);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMin = Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${off}`;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = [
  "UTC",
  "America/Los_Angeles",
  "America/New_York",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Europe/London",
  "Europe/Berlin",
  "Africa/Casablanca",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Tokyo",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Pacific/Apia",
  "Pacific/Kiritimati",
];

/** Zones that change offset in 2020-2030 (Lord Howe by 30 minutes, Chatham at :45). */
const WITH_DST = [
  "America/Los_Angeles",
  "America/New_York",
  "America/St_Johns",
  "Europe/London",
  "Europe/Berlin",
  "Africa/Casablanca",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
];

describe("csvCell fast path", () => {
  it("gives the reference cell for numbers, plain words and every special character", () => {
    const fixed: unknown[] = [
      0,
      -0,
      1,
      -1,
      12.5,
      -12.5,
      1e21,
      -1e21,
      1e-7,
      -1e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      "",
      "plain",
      "'quoted already",
      "a,b",
      'a"b',
      "a\nb",
      "a\rb",
      "=1+1",
      "+1",
      "-1",
      "@x",
      "\tx",
      "\rx",
      "\0x",
      '=HYPERLINK("x")',
      "-a,b",
      "-29.30",
      "+1 503 555 0100",
      "+1 (503) 555-0100",
      "-1+2",
      "+",
      "- ",
      "-1,2",
      "Ünïcødé ✓ 寄付",
      true,
      false,
      new Date(Date.UTC(2026, 0, 1)),
      { toString: () => "-obj" },
      10n,
      -10n,
    ];
    for (const v of fixed) expect(csvCell(v), JSON.stringify(String(v))).toBe(referenceCell(v));
    const alphabet = [
      "=",
      "+",
      "-",
      "@",
      "\t",
      "\r",
      "\n",
      "\0",
      '"',
      ",",
      "'",
      "a",
      "1",
      " ",
      "é",
      ".",
      "(",
      ")",
    ];
    const rand = prng(7);
    for (let i = 0; i < 5000; i++) {
      let s = "";
      const n = Math.floor(rand() * 6);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expect(csvCell(s), JSON.stringify(s)).toBe(referenceCell(s));
      const x = (rand() - 0.5) * 10 ** Math.floor(rand() * 30 - 10);
      expect(csvCell(x), String(x)).toBe(referenceCell(x));
    }
  });
});

describe("isoWithOffset fast path", () => {
  it("matches the Intl reference for random instants from 1850 to 2100 in every zone", () => {
    const rand = prng(42);
    const from = Date.UTC(1850, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    for (const zone of ZONES) {
      for (let i = 0; i < 400; i++) {
        const ms = Math.floor(from + rand() * (to - from));
        expect(isoWithOffset(ms, zone), `${zone} ${ms}`).toBe(referenceIso(ms, zone));
      }
    }
  });

  it("matches around every offset change from 2020 to 2030 (DST, :30 and :45 zones)", () => {
    // The changes, found every 6 hours (they are weeks apart) with one cached formatter.
    const STEP = 6 * 3_600_000;
    for (const zone of ZONES) {
      const f = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
      const offsetName = (ms: number) => f.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value;
      const changes: number[] = [];
      let prev = offsetName(Date.UTC(2020, 0, 1));
      for (let ms = Date.UTC(2020, 0, 1); ms < Date.UTC(2030, 0, 1); ms += STEP) {
        const cur = offsetName(ms);
        if (cur !== prev) {
          // Narrow down to the second of the change.
          let lo = ms - STEP;
          let hi = ms;
          while (hi - lo > 1000) {
            const mid = Math.floor((lo + hi) / 2000) * 1000;
            if (offsetName(mid) === prev) lo = mid;
            else hi = mid;
          }
          changes.push(hi);
          prev = cur;
        }
      }
      if (WITH_DST.includes(zone)) expect(changes.length, zone).toBeGreaterThanOrEqual(10);
      for (const t of changes) {
        for (const d of [
          -3_600_000, -900_001, -900_000, -1001, -1000, -1, 0, 1, 999, 1000, 900_000, 3_600_000,
        ]) {
          expect(isoWithOffset(t + d, zone), `${zone} ${new Date(t + d).toISOString()}`).toBe(
            referenceIso(t + d, zone),
          );
        }
      }
    }
  });

  it("matches for consecutive gifts minutes apart, as an export meets them", () => {
    for (const zone of ["America/Los_Angeles", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"]) {
      for (let ms = Date.UTC(2026, 2, 7, 0, 0, 7); ms < Date.UTC(2026, 2, 10); ms += 7 * 60_000 + 13_123)
        expect(isoWithOffset(ms, zone), `${zone} ${ms}`).toBe(referenceIso(ms, zone));
    }
  });

  it("keeps the fixed examples and blanks", () => {
    expect(isoWithOffset(Date.UTC(2026, 0, 15, 12, 0, 0, 999), "Asia/Kathmandu")).toBe(
      "2026-01-15T17:45:00+05:45",
    );
    expect(isoWithOffset(Date.UTC(2026, 0, 15, 12, 0, 0), "America/St_Johns")).toBe(
      "2026-01-15T08:30:00-03:30",
    );
    expect(isoWithOffset(-1, "UTC")).toBe("1969-12-31T23:59:59+00:00");
    expect(isoWithOffset(null, "UTC")).toBe("");
    expect(isoWithOffset(undefined)).toBe("");
  });
});

describe("isoUtc", () => {
  it("is toISOString for any instant: both sides of 1970, years 0000 and 9999 and beyond, fractions", () => {
    const rand = prng(99);
    const edges = [
      0,
      -1,
      1,
      -86_400_000,
      Date.UTC(2026, 2, 8, 10, 0, 0),
      Date.UTC(0, 0, 1) - 1,
      -62_167_219_200_000, // 0000-01-01T00:00:00.000Z
      -62_167_219_200_001,
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      253_402_300_800_000, // +010000-01-01
      8.64e15,
      -8.64e15,
      1.5,
      -1.5,
      1767225599999.9,
    ];
    const instants = [...edges];
    for (let i = 0; i < 20_000; i++) instants.push(Math.floor((rand() - 0.5) * 2 * 8.64e15));
    // Runs of nearby instants, as an export meets them (the day prefix is reused).
    for (let t = Date.UTC(2025, 11, 31, 23); t < Date.UTC(2026, 0, 1, 1); t += 61_337) instants.push(t);
    for (const ms of instants) expect(isoUtc(ms), String(ms)).toBe(new Date(ms).toISOString());
    // No Date holds these (rows stored before decision 019's rules): a blank cell, never a throw.
    for (const ms of [Number.NaN, 8.64e15 + 1, -8.64e15 - 1, Number.POSITIVE_INFINITY])
      expect(isoUtc(ms)).toBe("");
  });
});

describe("instants no Date holds (rows stored before decision 019's rules)", () => {
  it("are blank cells in both date columns, in any zone, and the next instant is still right", () => {
    for (const tz of ["UTC", "Europe/Paris", "Pacific/Kiritimati", "America/St_Johns"])
      for (const ms of [8.64e15 + 1000, -8.64e15 - 1000, 1e300, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(isoUtc(ms), `${ms}`).toBe("");
        expect(isoWithOffset(ms, tz), `${tz} ${ms}`).toBe("");
        const ok = Date.UTC(2026, 2, 1, 9, 30);
        expect(isoWithOffset(ok, tz)).toBe(referenceIso(ok, tz));
      }
    expect(isoUtc(8.64e15 + 1)).toBe("");
    // The last instants a Date holds still print (with their zone's offset).
    expect(isoUtc(8.64e15)).toBe("+275760-09-13T00:00:00.000Z");
    expect(isoWithOffset(-8.64e15, "UTC")).toBe("-271821-04-20T00:00:00+00:00");
  });
});
