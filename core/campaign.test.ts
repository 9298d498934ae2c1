import { describe, expect, it } from "vitest";
import { itemRoomProblem } from "./campaign";

describe("an item's room (the overfunding rule)", () => {
  const item = { allowOverfunding: false, needed: 10, funded: 7 };

  it("takes up to what is still needed, and refuses one more with what is left", () => {
    expect(itemRoomProblem(item, 3)).toBeNull();
    expect(itemRoomProblem(item, 4)).toBe("Only 3 more of this item are needed");
  });

  it("never says a negative number when others already funded past the need", () => {
    expect(itemRoomProblem({ ...item, funded: 12 }, 1)).toBe("Only 0 more of this item are needed");
  });

  it("is no limit on an item that allows more than needed, or needs no number", () => {
    expect(itemRoomProblem({ ...item, allowOverfunding: true }, 100)).toBeNull();
    expect(itemRoomProblem({ ...item, needed: null }, 100)).toBeNull();
  });
});
