/**
 * Cron jobs (wrangler.toml [triggers]). Each job is idempotent and bounded, so a missed or
 * repeated run is harmless. Feature modules register their jobs here.
 */
type Job = (env: Env, now: Date) => Promise<unknown>;

const every15Minutes: Job[] = [
  async (env, now) => {
    const t = now.getTime();
    await env.DB.batch([
      env.DB.prepare("DELETE FROM session WHERE expires_at < ?").bind(t),
      env.DB.prepare("DELETE FROM verification WHERE expires_at < ?").bind(t),
      env.DB.prepare("DELETE FROM rate_limit WHERE window_start < ?").bind(t - 3600_000),
    ]);
  },
];
const nightly: Job[] = [];

export const scheduledJobs = { every15Minutes, nightly };

export async function runScheduled(cron: string, env: Env, now: Date) {
  const jobs = cron === "0 3 * * *" ? nightly : every15Minutes;
  const results = await Promise.allSettled(jobs.map((job) => job(env, now)));
  for (const r of results) if (r.status === "rejected") console.error("cron job failed", cron, r.reason);
  return results;
}
