// The donors CSV has no endpoint: the browser builds it from donors.exportPage (core/exports/donors.ts).

import { csvCell } from "@core/csv";

export { handleDonationExport } from "./donation-export";
/** Re-exported for existing importers; the one implementation is core/csv.ts. */
export { csvCell };
