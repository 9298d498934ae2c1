/**
 * An account cannot be deleted while it is an organization's only owner (decision 046), in every
 * deletion of worker/auth; apart from service.ts so auth imports SQL and words only.
 */
import type { Database } from "../../db/databases";
import { ownsNothingAloneSql, soleOwnedOrganizations } from "./queries";

export { ownsNothingAloneSql };

/** The auth API's code for the refusal (better-auth's shape: an upper-case code and a message). */
export const SOLE_OWNER_CODE = "SOLE_OWNER_OF_ORGANIZATION";

/** "A", "A and B", "A, B and C". */
const listOf = (names: string[]) =>
  names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/**
 * Why the account cannot be deleted yet, naming the organizations it alone owns; null when it owns
 * none alone. `who` is "You" for the person themselves, their e-mail for a platform admin.
 */
export async function soleOwnerMessage(db: Database, userId: string, who: string) {
  const orgs = await soleOwnedOrganizations(db, userId);
  if (!orgs.length) return null;
  const are = who === "You" ? "are" : "is";
  return `${who} ${are} the only owner of ${listOf(orgs.map((o) => o.name))}. Make another member owner, or delete the organization, before deleting the account.`;
}
