/**
 * Receipts and year-end statements as PDF downloads (issue 25): GET /api/receipts/{id}.pdf (a
 * gift's page) and GET /api/donors/{id}/statement.pdf?year=2026&basis=calendar|fiscal (a donor's
 * page). Signed in with `receipt:view` (and `donor:view` for a statement) in the organization,
 * decided as the org rung decides (worker/http/export-access.ts). The PDF code loads on first use.
 */
import { STATEMENT_YEAR_MAX, STATEMENT_YEAR_MIN, type StatementBasis, statementBases } from "@core/receipts";
import { TRPCError } from "@trpc/server";
import { documentAccess } from "./export-access";
import { json } from "./headers";

const STATUS: Partial<Record<TRPCError["code"], number>> = { NOT_FOUND: 404, BAD_REQUEST: 400 };

function pdfResponse(doc: { bytes: Uint8Array; filename: string }, download: boolean) {
  return new Response(doc.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `${download ? "attachment" : "inline"}; filename="${doc.filename}"`,
      "cache-control": "private, no-store",
    },
  });
}

async function answer(run: () => Promise<{ bytes: Uint8Array; filename: string }>, download: boolean) {
  try {
    return pdfResponse(await run(), download);
  } catch (error) {
    if (error instanceof TRPCError && STATUS[error.code])
      return json({ code: error.code, message: error.message }, { status: STATUS[error.code] });
    throw error;
  }
}

export async function handleReceiptPdf(request: Request, env: Env, receiptId: string) {
  if (request.method !== "GET")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
  const access = await documentAccess(request, env, { receipt: ["view"] });
  if (access instanceof Response) return access;
  const { receiptPdf } = await import("../receipts/delivery");
  const download = new URL(request.url).searchParams.get("download") === "1";
  return answer(() => receiptPdf({ env, org: access.org }, receiptId), download);
}

export async function handleStatementPdf(request: Request, env: Env, donorId: string) {
  if (request.method !== "GET")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
  const access = await documentAccess(request, env, { receipt: ["view"], donor: ["view"] });
  if (access instanceof Response) return access;
  const params = new URL(request.url).searchParams;
  const year = Number(params.get("year"));
  const basis = (params.get("basis") ?? "calendar") as StatementBasis;
  if (!Number.isInteger(year) || year < STATEMENT_YEAR_MIN || year > STATEMENT_YEAR_MAX)
    return json(
      {
        code: "BAD_REQUEST",
        message: `The year must be between ${STATEMENT_YEAR_MIN} and ${STATEMENT_YEAR_MAX}`,
      },
      { status: 400 },
    );
  if (!statementBases.includes(basis))
    return json({ code: "BAD_REQUEST", message: "The basis must be calendar or fiscal" }, { status: 400 });
  const { donorStatement } = await import("../receipts/statements");
  return answer(() => donorStatement({ env, org: access.org }, donorId, year, basis), true);
}
