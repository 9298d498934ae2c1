import { describe, expect, it } from "vitest";
import { SOCIAL_PROVIDER_IDS } from "../../app.config";
import { PROVIDERS } from "../../worker/auth/social/providers";
import { Jar } from "./helpers";

/** Where each provider's real authorization endpoint lives, and whether the request carries PKCE. */
const EXPECTED: Record<string, [string, boolean]> = {
  apple: ["https://appleid.apple.com/auth/authorize", true],
  atlassian: ["https://auth.atlassian.com/authorize", false],
  cognito: ["https://auth.example.com/oauth2/authorize", true],
  discord: ["https://discord.com/oauth2/authorize", true],
  facebook: ["https://www.facebook.com/v16.0/dialog/oauth", false],
  figma: ["https://www.figma.com/oauth", false],
  github: ["https://github.com/login/oauth/authorize", false],
  microsoft: ["https://login.microsoftonline.com/common/oauth2/v2.0/authorize", true],
  google: ["https://accounts.google.com/o/oauth2/v2/auth", true],
  huggingface: ["https://huggingface.co/oauth/authorize", true],
  slack: ["https://slack.com/openid/connect/authorize", false],
  spotify: ["https://accounts.spotify.com/authorize", true],
  twitch: ["https://id.twitch.tv/oauth2/authorize", false],
  twitter: ["https://twitter.com/i/oauth2/authorize", true],
  dropbox: ["https://www.dropbox.com/oauth2/authorize", false],
  kick: ["https://id.kick.com/oauth/authorize", true],
  linear: ["https://linear.app/oauth/authorize", false],
  linkedin: ["https://www.linkedin.com/oauth/v2/authorization", false],
  gitlab: ["https://gitlab.com/oauth/authorize", false],
  tiktok: ["https://www.tiktok.com/v2/auth/authorize", true],
  reddit: ["https://www.reddit.com/api/v1/authorize", false],
  roblox: ["https://apis.roblox.com/oauth/v1/authorize", true],
  salesforce: ["https://login.salesforce.com/services/oauth2/authorize", true],
  vk: ["https://oauth.vk.com/authorize", false],
  zoom: ["https://zoom.us/oauth/authorize", true],
  notion: ["https://api.notion.com/v1/oauth/authorize", false],
  kakao: ["https://kauth.kakao.com/oauth/authorize", false],
  naver: ["https://nid.naver.com/oauth2.0/authorize", false],
  line: ["https://access.line.me/oauth2/v2.1/authorize", true],
  paypal: ["https://www.paypal.com/signin/authorize", true],
};

const allConfigured: Record<string, string> = {
  ENVIRONMENT: "production",
  // Production switches rate limits on (decision 018); 30 sign-ins in a row here test providers.
  RATE_LIMIT_ENABLED: "false",
  APP_URL: "https://portal.example",
  COGNITO_DOMAIN: "auth.example.com",
};
for (const id of SOCIAL_PROVIDER_IDS) {
  allConfigured[`${id.toUpperCase()}_CLIENT_ID`] = `${id}-client`;
  allConfigured[`${id.toUpperCase()}_CLIENT_SECRET`] = `${id}-secret`;
}

describe("the 30 providers of SPEC §7", () => {
  it("are exactly the spec's list, arctic-backed except apple, huggingface and paypal", () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual([...SOCIAL_PROVIDER_IDS].sort());
    expect(SOCIAL_PROVIDER_IDS).toHaveLength(30);
    const generic = SOCIAL_PROVIDER_IDS.filter((id) => !PROVIDERS[id].arctic);
    expect(generic).toEqual(["apple", "huggingface", "paypal"]);
  });

  it("are enabled only with a client id and a secret", async () => {
    // The test Worker configures gitlab, huggingface and cognito (the latter through its issuer).
    const base = { ENVIRONMENT: "production", GITLAB_CLIENT_ID: "", HUGGINGFACE_CLIENT_SECRET: "" };
    const none = (await (await new Jar(base).get("/api/auth/social/providers")).json()) as unknown[];
    // Cognito without a domain, in production, is not enabled either.
    expect(none).toEqual([]);
    const half = await new Jar({ ...base, GOOGLE_CLIENT_ID: "only-id" }).get("/api/auth/social/providers");
    expect(await half.json()).toEqual([]);
    const all = (await (await new Jar(allConfigured).get("/api/auth/social/providers")).json()) as {
      id: string;
      name: string;
    }[];
    expect(all.map((p) => p.id)).toEqual([...SOCIAL_PROVIDER_IDS]);
    expect(all.find((p) => p.id === "github")?.name).toBe("GitHub");
    // Cognito also needs its domain.
    const noDomain = { ...allConfigured, COGNITO_DOMAIN: "" };
    const list = (await (await new Jar(noDomain).get("/api/auth/social/providers")).json()) as {
      id: string;
    }[];
    expect(list.map((p) => p.id)).not.toContain("cognito");
  });

  it("send each provider to its real authorization endpoint with state, scopes and PKCE where it applies", async () => {
    const jar = new Jar(allConfigured);
    for (const id of SOCIAL_PROVIDER_IDS) {
      const res = await jar.post("/api/auth/sign-in/social", {
        provider: id,
        disableRedirect: true,
        loginHint: "a@b.co",
      });
      expect(res.status, id).toBe(200);
      const { url, redirect } = (await res.json()) as { url: string; redirect: boolean };
      expect(redirect).toBe(false);
      expect(res.headers.get("location")).toBeNull();
      const u = new URL(url);
      const [endpoint, pkce] = EXPECTED[id] ?? ["", false];
      expect(`${u.origin}${u.pathname}`, id).toBe(endpoint);
      expect(u.searchParams.get("state"), id).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(u.searchParams.get("code_challenge_method"), id).toBe(pkce ? "S256" : null);
      if (pkce) expect(u.searchParams.get("code_challenge"), id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(u.searchParams.get("login_hint"), id).toBe("a@b.co");
      if (id !== "naver" && id !== "notion" && PROVIDERS[id].scopes.length) {
        expect(u.searchParams.get("scope")?.split(" "), id).toEqual(
          expect.arrayContaining(PROVIDERS[id].scopes),
        );
      }
      // TikTok calls it client_key.
      expect(u.searchParams.get(id === "tiktok" ? "client_key" : "client_id"), id).toBe(`${id}-client`);
      expect(u.searchParams.get("redirect_uri"), id).toBe(`https://portal.example/api/auth/callback/${id}`);
    }
  });

  it("map provider profiles to users", () => {
    const c = {
      clientId: "",
      clientSecret: "",
      redirectURI: "",
      domain: "",
      tenant: "",
      region: "",
      userPoolId: "",
    };
    expect(
      PROVIDERS.discord.map(
        { id: "42", email: "d@x.io", verified: true, username: "dd", avatar: "ab" },
        {},
        c,
      ),
    ).toEqual({
      id: "42",
      email: "d@x.io",
      emailVerified: true,
      name: "dd",
      image: "https://cdn.discordapp.com/avatars/42/ab.png",
    });
    expect(
      PROVIDERS.vk.map({ response: [{ id: 7, first_name: "A", last_name: "B" }] }, { email: "v@k.ru" }, c),
    ).toMatchObject({
      id: "7",
      email: "v@k.ru",
      name: "A B",
    });
    expect(
      PROVIDERS.notion.map({}, { owner: { user: { id: "u1", name: "N", person: { email: "n@x.io" } } } }, c),
    ).toMatchObject({ id: "u1", email: "n@x.io" });
    expect(
      PROVIDERS.naver.map({ response: { id: "n1", email: "n@v.kr", name: "Kim" } }, {}, c),
    ).toMatchObject({
      id: "n1",
      email: "n@v.kr",
    });
    expect(
      PROVIDERS.twitter.map({ data: { id: "t1", name: "T", confirmed_email: "t@x.io" } }, {}, c),
    ).toMatchObject({
      email: "t@x.io",
      emailVerified: true,
    });
    expect(PROVIDERS.github.map({}, {}, c)).toBeNull();
  });
});
