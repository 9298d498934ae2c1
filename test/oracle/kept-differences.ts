/**
 * Differences from the better-auth 1.3.34 oracle that we keep on purpose, each with the decision
 * record that accepts it. The contract suite (test/oracle/contract.oracle.ts) fails on any
 * difference not listed here, and on an entry that no longer matches anything (a fixed difference
 * leaves the list).
 *
 * Key: endpoint (as named in test/oracle/cases.ts), variant and compared field (status, kind, code,
 * message, shape, location, cookies, setup); "*" matches any.
 */
export interface KeptDifference {
  endpoint: string;
  variant: string;
  field: string;
  reason: string;
  /** A record under docs/decisions/. */
  decision: string;
}

const D023 = "docs/decisions/023-auth-contract-differences.md";

/** One entry per field: `fields` of `variants` of `endpoints`, for one reason. */
function keep(
  endpoints: string[],
  variants: string[],
  fields: string[],
  reason: string,
  decision = D023,
): KeptDifference[] {
  return endpoints.flatMap((endpoint) =>
    variants.flatMap((variant) => fields.map((field) => ({ endpoint, variant, field, reason, decision }))),
  );
}

/** A refusal on one side and a refusal or a JSON success on the other: both bodies are JSON. */
const ERROR_BODY = ["status", "code", "message", "shape"];
/** 400 VALIDATION_ERROR (JSON) where 1.3.34 answers 404 USER_NOT_FOUND (JSON): same shape. */
const ERROR_CODE = ["status", "code", "message"];

const ADMIN_AUTH_BASE =
  "SPEC §7 serves the core endpoints under the admin-auth base /api/auth/admin as well; better-auth has no such base (404)";

const DELETE_AT_ONCE =
  "a password or a fresh session deletes at once; better-auth 1.3 with sendDeleteAccountVerification mails a link instead";

export const keptDifferences: KeptDifference[] = [
  // Every endpoint.
  ...keep(
    ["*"],
    ["malformed JSON"],
    ["*"],
    "malformed JSON is 400 BAD_REQUEST 'Invalid JSON in request body' before the endpoint acts (never a 500 for bad input); 1.3.34's handler throws (500, no body), also on endpoints that take no body",
  ),
  ...keep(
    ["*"],
    ["no session", "signed-out session"],
    ["kind", "code", "message", "shape"],
    "every error body carries code and message (issue 20): 401 {code:UNAUTHORIZED, message:Unauthorized}; 1.3.34's session middleware throws a bare APIError('UNAUTHORIZED') with no body",
  ),
  ...keep(
    ["POST /revoke-session"],
    ["another user's session"],
    ["kind", "code", "message", "shape"],
    "every error body carries code and message (issue 20): 401 {code:UNAUTHORIZED, message:Unauthorized}; 1.3.34's session middleware throws a bare APIError('UNAUTHORIZED') with no body",
  ),
  ...keep(
    ["GET /sign-in/email (wrong method)", "POST /get-session (wrong method)"],
    ["valid"],
    ["status", "kind", "code", "message", "shape"],
    "a known path asked with the wrong method is 405 METHOD_NOT_ALLOWED (RFC 9110 §15.5.6); 1.3.34's router answers 404",
  ),
  ...keep(
    ["POST /account-info"],
    ["GET"],
    ["status", "kind", "code", "message", "shape"],
    "a known path asked with the wrong method is 405 METHOD_NOT_ALLOWED (RFC 9110 §15.5.6); 1.3.34's router answers 404",
  ),
  // sign-up, sign-in, update-user: input 1.3.34 does not check.
  ...keep(
    ["POST /sign-up/email"],
    ["missing name"],
    ERROR_BODY,
    "a missing name is 400 VALIDATION_ERROR; 1.3.34 sends the insert to the database and answers 422 FAILED_TO_CREATE_USER with the SQLite error in `details`",
  ),
  ...keep(
    ["POST /sign-up/email"],
    ["missing password", "wrong-typed password"],
    [...ERROR_BODY, "kind"],
    "a missing or non-string password is 400 VALIDATION_ERROR; 1.3.34 reads its length and throws (500)",
  ),
  ...keep(
    ["POST /sign-up/email", "POST /update-user"],
    ["wrong-typed name"],
    [...ERROR_BODY, "cookies"],
    "a name is a string of 1–200 characters (SPEC §5); 1.3.34 stores whatever JSON value comes (the number 12345.0 becomes a name)",
  ),
  ...keep(
    ["POST /sign-in/email"],
    ["long password"],
    ["status", "code", "message"],
    "SPEC §5 asks sign-in for the length rule (400 PASSWORD_TOO_LONG, never hashed); 1.3.34 checks no length there and answers 401",
  ),
  // Sessions.
  ...keep(
    ["POST /revoke-session"],
    ["valid", "unknown extra field"],
    ["cookies"],
    "a request that ends the session it rides on clears that session's cookies in the same answer, so the browser's cookie cache does not show a dead session for up to 60 s (SPEC §4); 1.3.34 leaves them for the next uncached get-session",
  ),
  ...keep(
    ["POST /revoke-sessions"],
    ["*"],
    ["cookies"],
    "revoke-sessions ends the caller's own session too and clears its cookies in the same answer (SPEC §4); 1.3.34 leaves them for the next uncached get-session",
  ),
  ...keep(
    ["POST /delete-user"],
    ["mailed token"],
    ["cookies"],
    "deleting the account ends the session the request rides on and clears its cookies in the same answer, as the other delete-user paths do; 1.3.34 leaves them on this path",
  ),
  ...keep(
    ["GET /verify-email"],
    ["valid", "unknown extra field", "with callbackURL"],
    ["cookies"],
    "the verifying user's own session gets a new cookie cache that shows the address verified; 1.3.34 (without autoSignInAfterVerification) leaves the old cache, which says unverified for up to 60 s",
  ),
  // Social.
  ...keep(
    ["GET /callback/:id"],
    ["POST form"],
    ["location"],
    "a form_post callback (Apple) is redirected to the GET callback with the same parameters, where the browser sends the SameSite=Lax state cookies; 1.3.34 handles the POST in place",
  ),
  ...keep(
    ["POST /get-access-token"],
    ["valid", "unknown extra field", "another user's session"],
    ["code", "message"],
    "SPEC §8's wording 'Provider {id} is not supported, or not found' (code PROVIDER_NOT_SUPPORTED); 1.3.34 says 'Provider github is not supported.'",
  ),
  // Admin plugin.
  ...keep(
    ["GET /admin/list-users"],
    ["bad limit"],
    ERROR_BODY,
    "a limit that is not a whole number from 1 to 1000 is 400 VALIDATION_ERROR; 1.3.34 drops it and lists 100 users",
  ),
  ...keep(
    ["POST /admin/create-user", "POST /admin/set-user-password"],
    ["short password"],
    ERROR_BODY,
    "SPEC §5's length rule (and the common-password list) applies wherever a password is chosen, an admin's choice too; 1.3.34 checks no length here",
  ),
  ...keep(
    [
      "POST /admin/update-user",
      "POST /admin/set-role",
      "POST /admin/unban-user",
      "POST /admin/list-user-sessions",
      "POST /admin/revoke-user-sessions",
      "POST /admin/set-user-password",
    ],
    ["wrong-typed userId"],
    ERROR_BODY,
    "a userId that is not a string is 400 VALIDATION_ERROR; 1.3.34 coerces it (z.coerce.string()) and acts on the user '12345'",
  ),
  ...keep(
    ["POST /admin/ban-user", "POST /admin/remove-user", "POST /admin/impersonate-user"],
    ["wrong-typed userId"],
    ERROR_CODE,
    "a userId that is not a string is 400 VALIDATION_ERROR; 1.3.34 coerces it (z.coerce.string()) and finds no user '12345' (404)",
  ),
  ...keep(
    ["POST /admin/update-user", "POST /admin/set-role", "POST /admin/unban-user"],
    ["unknown user"],
    ERROR_BODY,
    "an unknown user is 404 USER_NOT_FOUND on every admin endpoint (as ban-user, remove-user and impersonate-user answer in 1.3.34 too); 1.3.34 answers 200 with null here",
  ),
  ...keep(
    ["POST /admin/update-user"],
    ["password in data"],
    ERROR_BODY,
    "a password is set through set-user-password (hashed, links retired, owner told), never written by update-user; 1.3.34 passes it to the user table",
  ),
  ...keep(
    ["POST /admin/impersonate-user"],
    ["an admin"],
    [...ERROR_BODY, "cookies"],
    "DESIGN §3: an admin never impersonates another admin (403 YOU_CANNOT_IMPERSONATE_ADMINS, as later better-auth releases refuse it); 1.3.34 allows it",
  ),
  ...keep(
    ["POST /admin/stop-impersonating"],
    ["valid", "unknown extra field", "empty body", "Content-Type text/plain", "not impersonating"],
    ["cookies"],
    "stopping clears the admin_session cookie and the impersonation's dont_remember cookie; 1.3.34 leaves both, so the admin's own session is then treated as 'don't remember me' (never refreshed)",
  ),
  ...keep(
    ["POST /admin/stop-impersonating"],
    ["signed-out session"],
    ["status", "cookies"],
    "a signed-out impersonation session cannot be stopped into the admin's session (401; sessions end when they end); 1.3.34 trusts its 60 s cookie cache and restores the admin",
  ),
  ...[
    "POST /admin/sign-in/email (admin-auth base)",
    "GET /admin/get-session (admin-auth base)",
    "POST /admin/sign-out (admin-auth base)",
    "GET /admin/admin/list-users (admin-auth base)",
  ].map((endpoint) => ({
    endpoint,
    variant: "valid",
    field: "*",
    reason: ADMIN_AUTH_BASE,
    decision: D023,
  })),
  ...[
    "valid",
    "missing password",
    "unknown extra field",
    "fresh session, no password",
    "another user's session",
  ].flatMap((variant) =>
    // shape: the get-session after it finds the user gone.
    ["message", "cookies", "shape"].map((field) => ({
      endpoint: "POST /delete-user",
      variant,
      field,
      reason: DELETE_AT_ONCE,
      decision: "docs/decisions/005-mail-tokens-and-delete-user.md",
    })),
  ),
  ...["status", "code", "message", "shape"].map((field) => ({
    endpoint: "POST /admin/has-permission",
    variant: "*",
    field,
    reason:
      "better-auth 1.3.34's body schema (a union whose other key is z.undefined()) refuses every body under zod 4.6.7 with 400 VALIDATION_ERROR: the oracle's defect, not the contract",
    decision: D023,
  })),
];
