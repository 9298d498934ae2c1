// Receipt and statement PDFs, decided as the org rung decides (worker/http/export-access.ts).
import { STATEMENT_YEAR_MAX, STATEMENT_YEAR_MIN, type StatementBasis, statementBases } from "@core/receipts";
import { REFUSAL_STATUS, Refusal } from "../lib/fail";
import { documentAccess } from "./export-access";
import { json, methodNotAllowed } from "./headers";

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
    if (error instanceof Refusal)
      return json({ code: error.code, message: error.message }, { status: REFUSAL_STATUS[error.code] });
    throw error;
  }
}

export async function handleReceiptPdf(request: Request, env: Env, receiptId: string) {
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
  const access = await documentAccess(request, env, { receipt: ["view"] });
  if (access instanceof Response) return access;
  const { receiptPdf } = await import("../receipts/delivery");
  const download = new URL(request.url).searchParams.get("download") === "1";
  return answer(() => receiptPdf({ env, org: access.org }, receiptId), download);
}

export async function handleStatementPdf(request: Request, env: Env, donorId: string) {
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
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
