/**
 * The organizers CSV (core/exports/organizers.ts: one column list) and its access rule: the same as
 * every export's (core/permissions.ts `refusal`, also behind worker/http/export-access.ts) — signed
 * in, allowed to export, and never while impersonating, whoever is impersonated.
 */
import { organizerColumns } from "@core/exports/organizers";
import { beforeAll, describe, expect, it } from "vitest";
import { organizerCsv } from "../../src/features/organizers/export";
import { makeAdmin } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

describe("organizers export", () => {
  let admin: Awaited<ReturnType<typeof makeAdmin>>;
  let org: string;
  let organizer: Awaited<ReturnType<typeof member>>;

  beforeAll(async () => {
    org = await makeOrg();
    organizer = await member(org, "organizer", "organizer");
    admin = await makeAdmin();
  });

  it("builds the file from the procedure's pages with one header and one line per row", async () => {
    const caller = await callerFor(admin.jar);
    const progress: [number, number][] = [];
    const { parts, rows } = await organizerCsv(
      (input) => caller.organizers.exportPage({ ...input, limit: 1 }),
      { organizationId: org },
      (done, total) => progress.push([done, total]),
    );
    expect(rows).toBe(1);
    expect(progress.at(-1)).toEqual([1, 1]);
    const lines = parts
      .join("")
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(lines[0]).toBe(organizerColumns.map((c) => c.header).join(","));
    expect(lines[0]).toBe(
      "user_id,name,email,organization,role,status,invited_by,joined,last_active,campaigns_owned",
    );
    const cells = lines[1]?.split(",") ?? [];
    expect(cells.slice(0, 7)).toEqual([
      organizer.user.id,
      "Test User",
      organizer.email,
      (
        await testEnv.DB.prepare("SELECT name FROM organization WHERE id = ?")
          .bind(org)
          .first<{ name: string }>()
      )?.name,
      "organizer",
      "active",
      "",
    ]);
    expect(cells[9]).toBe("0");
    expect(lines.slice(2)).toEqual([""]);
  });

  it("refuses an admin impersonating an organizer with the exports' own 403, and writes no audit row", async () => {
    const started = await admin.jar.post("/api/auth/admin/impersonate-user", {
      userId: organizer.user.id,
      reason: "organizers export rule",
    });
    expect(started.status).toBe(200);
    const impersonating = await callerFor(admin.jar);
    await expect(impersonating.organizers.exportPage({ organizationId: org })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Exports are not available while impersonating",
    });
    const audits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE action = 'organizer.export' AND actor_id = ? AND impersonator_id IS NOT NULL",
    )
      .bind(organizer.user.id)
      .first<{ n: number }>();
    expect(audits?.n).toBe(0);
  });
});
