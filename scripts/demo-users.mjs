// The demo logins, printed by `npm run dev` and listed in the README. Local only.
export const DEMO_PASSWORD = "almoner-demo-2026";

export const demoUsers = [
  {
    key: "admin",
    name: "Ada Admin",
    email: "admin@almoner.test",
    role: "admin",
    org: "harbor",
    membership: "owner",
  },
  {
    key: "organizer",
    name: "Oscar Organizer",
    email: "organizer@almoner.test",
    role: "organizer",
    org: "harbor",
    membership: "organizer",
  },
  {
    key: "member",
    name: "Mia Member",
    email: "member@almoner.test",
    role: "user",
    org: "harbor",
    membership: "viewer",
  },
  {
    key: "outsider",
    name: "Otto Outsider",
    email: "outsider@almoner.test",
    role: "user",
    org: null,
    membership: null,
  },
  // Owners of the other demo organizations (EUR, GBP, JPY).
  {
    key: "lumiere",
    name: "Léa Laurent",
    email: "lumiere@almoner.test",
    role: "user",
    org: "lumiere",
    membership: "owner",
  },
  {
    key: "thames",
    name: "Tom Hughes",
    email: "thames@almoner.test",
    role: "user",
    org: "thames",
    membership: "owner",
  },
  {
    key: "koyo",
    name: "Kenji Sato",
    email: "koyo@almoner.test",
    role: "user",
    org: "koyo",
    membership: "owner",
  },
];

export function printDemoLogins(url = "http://localhost:3000") {
  const rows = demoUsers.map((u) => [
    u.role + (u.membership ? ` (${u.membership} of ${u.org})` : " (no organization)"),
    u.email,
    DEMO_PASSWORD,
  ]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((r) => r[i].length), ["role", "e-mail", "password"][i].length),
  );
  const line = (r) => `  ${r.map((c, i) => c.padEnd(widths[i])).join("  ")}`;
  console.log(`\nAlmoner demo logins (${url}/login):`);
  console.log(line(["role", "e-mail", "password"]));
  for (const r of rows) console.log(line(r));
  console.log("");
}
