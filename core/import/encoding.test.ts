/**
 * A file's bytes back to its text (issue 23): whatever encoding the old system or Excel wrote,
 * the import reads the same characters, without a byte-order mark in the first header.
 */
import { describe, expect, it } from "vitest";
import { ENCODED, utf8, utf16, windows1252 } from "../../test/fixtures/imports/awkward";
import { decodeBytes, detectEncoding, ENCODING_LABELS } from "./encoding";

describe("each file's encoding is recognized and decoded", () => {
  for (const file of ENCODED)
    it(file.name, () => {
      const encoding = detectEncoding(file.bytes);
      const text = decodeBytes(file.bytes, encoding);
      expect(text).toBe(file.text);
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
    });
});

describe("detection", () => {
  it("trusts a byte-order mark first", () => {
    expect(detectEncoding(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]))).toBe("utf-8");
    expect(detectEncoding(Uint8Array.from([0xff, 0xfe, 0x41, 0x00]))).toBe("utf-16le");
    expect(detectEncoding(Uint8Array.from([0xfe, 0xff, 0x00, 0x41]))).toBe("utf-16be");
  });

  it("tells UTF-16 without a BOM by which byte of each pair is NUL", () => {
    expect(detectEncoding(utf16("Email,Amount\r\n", "le", false))).toBe("utf-16le");
    expect(detectEncoding(utf16("Email,Amount\r\n", "be", false))).toBe("utf-16be");
  });

  it("takes valid UTF-8 for UTF-8 and anything else for Windows-1252", () => {
    expect(detectEncoding(utf8("Zoë;1.234,56 €"))).toBe("utf-8");
    expect(detectEncoding(utf8("plain ascii"))).toBe("utf-8");
    expect(detectEncoding(windows1252("Zoë;1.234,56 €"))).toBe("windows-1252");
    expect(detectEncoding(new Uint8Array())).toBe("utf-8");
  });

  it("does not take UTF-8 cut in the middle of a character at the end of the sample for Windows-1252", () => {
    // The sniffing reads 64 KiB: the two bytes of "é" straddle its end.
    const long = `${"a".repeat(64 * 1024 - 1)}é and more`;
    expect(detectEncoding(utf8(long))).toBe("utf-8");
    // A file that really ends inside a character is no UTF-8.
    expect(detectEncoding(utf8("abcé").subarray(0, 4))).toBe("windows-1252");
  });
});

describe("decoding", () => {
  it("maps Windows-1252's own bytes: the euro sign, curly quotes and dashes, and Latin-1 letters", () => {
    const bytes = Uint8Array.from([0x80, 0x20, 0x93, 0x61, 0x94, 0x20, 0x96, 0x20, 0xe9, 0xfc, 0xdf]);
    expect(decodeBytes(bytes, "windows-1252")).toBe("€ “a” – éüß");
  });

  it("drops the BOM, also a second one a tool left behind", () => {
    expect(decodeBytes(utf8("Name\n", true), "utf-8")).toBe("Name\n");
    expect(decodeBytes(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8("\uFEFFName")]), "utf-8")).toBe("Name");
    expect(decodeBytes(utf16("Name", "be"), "utf-16be")).toBe("Name");
  });

  it("keeps characters outside the Basic Multilingual Plane in UTF-16", () => {
    expect(decodeBytes(utf16("Gift 🎁", "le"), "utf-16le")).toBe("Gift 🎁");
  });

  it("names every encoding for the override menu", () => {
    expect(Object.keys(ENCODING_LABELS)).toEqual(["utf-8", "utf-16le", "utf-16be", "windows-1252"]);
  });
});
