import { describe, expect, it } from "vitest";
import { deviceName } from "./device";

describe("deviceName", () => {
  it("names the browser and the system instead of the raw user agent", () => {
    expect(
      deviceName(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
      ),
    ).toBe("Chrome 142 on macOS Catalina");
    expect(
      deviceName(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari 18 on iOS 18.2");
    expect(
      deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"),
    ).toBe("Firefox 133 on Windows 10");
    expect(deviceName(null)).toBe("Unknown device");
    expect(deviceName("curl/8.5.0")).toMatch(/curl|Unknown device/i);
  });
});
