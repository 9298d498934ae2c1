import { exportFileName } from "@core/csv";

/** Hands a CSV built in the browser to it as a download, named like every export (core/csv.ts). */
export function saveCsv(parts: BlobPart[], owner: string, what: string, timeZone: string) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  a.download = exportFileName(owner, what, Date.now(), timeZone);
  a.click();
  URL.revokeObjectURL(a.href);
}
