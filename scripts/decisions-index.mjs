// The decision records' index (docs/decisions/README.md), written from the records' own headers:
// `# NNN — Title`, `Date:`, `Status:`, and the `Amends:` / `Amended by:` / `Supersedes:` lines.
// `node scripts/decisions-index.mjs` writes it; scripts/check-citations.mjs fails when it is stale
// or when two records disagree about what amends or supersedes what.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(fileURLToPath(new URL(".", import.meta.url)), "..", "docs", "decisions");
const numbers = (line) => (line ? [...line.matchAll(/\b\d{3}\b/g)].map((m) => m[0]) : []);

/** Every record's header, and the problems in them. */
export function readRecords() {
  const problems = [];
  const records = readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), "utf8");
      const head = text.split(/\n## /)[0];
      const field = (name) => head.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
      const title = text.match(/^# (\d{3}) — (.+)$/m);
      const number = file.slice(0, 3);
      if (title?.[1] !== number) problems.push(`${file}: the first line is not "# ${number} — Title"`);
      const date = field("Date");
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? "")) problems.push(`${file}: no "Date: YYYY-MM-DD"`);
      const status = field("Status") ?? "";
      if (!/^(accepted|superseded by \d{3})\b/.test(status))
        problems.push(`${file}: "Status:" is neither "accepted…" nor "superseded by NNN…"`);
      return {
        file,
        number,
        title: title?.[2] ?? file,
        date,
        supersededBy: status.match(/^superseded by (\d{3})/)?.[1],
        amends: numbers(field("Amends")),
        amendedBy: numbers(field("Amended by")),
        supersedes: numbers(field("Supersedes")),
      };
    });
  const byNumber = new Map(records.map((r) => [r.number, r]));
  for (const r of records) {
    for (const n of r.amends)
      if (!byNumber.get(n)?.amendedBy.includes(r.number))
        problems.push(`${r.file} amends ${n}, whose "Amended by:" does not list ${r.number}`);
    for (const n of r.amendedBy)
      if (!byNumber.get(n)?.amends.includes(r.number))
        problems.push(`${r.file} is amended by ${n}, whose "Amends:" does not list ${r.number}`);
    for (const n of r.supersedes)
      if (byNumber.get(n)?.supersededBy !== r.number)
        problems.push(`${r.file} supersedes ${n}, whose status is not "superseded by ${r.number}"`);
    if (r.supersededBy && !byNumber.get(r.supersededBy)?.supersedes.includes(r.number))
      problems.push(`${r.file} is superseded by ${r.supersededBy}, whose "Supersedes:" lacks it`);
  }
  return { records, problems };
}

export function indexText(records) {
  const status = (r) =>
    r.supersededBy
      ? `superseded by ${r.supersededBy}`
      : r.amendedBy.length
        ? `accepted, amended by ${r.amendedBy.join(", ")}`
        : "accepted";
  return [
    "# Decision records",
    "",
    "What was decided and why, one record each. A record's header gives its date and status; a later",
    "record that changes it says `Amends:` or `Supersedes:`, and the earlier one says so at its top.",
    "This index is written by `node scripts/decisions-index.mjs`; `npm test` fails when it is stale.",
    "",
    "| No. | Decision | Status | Date |",
    "|---|---|---|---|",
    ...records.map(
      (r) => `| ${r.number} | [${r.title.replaceAll("|", "\\|")}](${r.file}) | ${status(r)} | ${r.date} |`,
    ),
    "",
  ].join("\n");
}

export const indexFile = join(dir, "README.md");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { records, problems } = readRecords();
  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  writeFileSync(indexFile, indexText(records));
  console.log(`docs/decisions/README.md: ${records.length} records`);
}
