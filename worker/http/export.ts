/**
 * The HTTP exports: the donations export lives in ./donation-export.ts. The donors CSV has no HTTP
 * endpoint: the donors page builds it in the browser from donors.exportPage (worker/donors/router.ts)
 * with the columns of core/exports/donors.ts.
 */

import { csvCell } from "@core/csv";

export { handleDonationExport } from "./donation-export";
/** Kept for callers that imported it from here; the one implementation is core/csv.ts. */
export { csvCell };
