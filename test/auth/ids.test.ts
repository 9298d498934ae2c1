/**
 * Ids (worker/auth/crypto.ts): generateId is 32 random alphanumerics; timeOrderedId has the same
 * shape and sorts by the millisecond it was made in, as SQLite compares text (byte order), so an
 * import's new rows fill the id indexes' last pages (decision 035).
 */
import { describe, expect, it } from "vitest";
import { generateId, timeOrderedId } from "../../worker/lib/ids";

const SHAPE = /^[A-Za-z0-9]{32}$/;
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("ids", () => {
  it("time-ordered ids look like random ones and sort by the millisecond, as SQLite compares text", () => {
    expect(generateId()).toMatch(SHAPE);
    const instants = [
      0, 1, 61, 62, 3_843, 1_700_000_000_000, 1_795_000_000_000, 1_795_000_000_001, 218_340_105_584_895,
    ];
    const ids = instants.map((t) => timeOrderedId(t));
    for (const id of ids) expect(id).toMatch(SHAPE);
    expect([...ids].sort(byteOrder)).toEqual(ids);
    // Ids of one millisecond share its prefix and differ in their random part.
    const same = Array.from({ length: 1_000 }, () => timeOrderedId(1_795_000_000_000));
    expect(new Set(same.map((id) => id.slice(0, 8)))).toEqual(new Set([ids[6]?.slice(0, 8)]));
    expect(new Set(same).size).toBe(same.length);
  });
});
