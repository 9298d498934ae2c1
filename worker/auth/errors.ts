/** The auth API's error shape `{code, message}` (better-auth 1.3) and its catalogue (SPEC §8). */
export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** better-call 1.0.19's code for an error thrown with a message only (what 1.3.34 mostly does). */
export const codeOf = (message: string) =>
  message
    .toUpperCase()
    .replace(/ /g, "_")
    .replace(/[^A-Z0-9_]/g, "");

/** An error as better-auth 1.3.34 throws most: a status and a message, the code derived from it. */
export const apiError = (status: number, message: string) =>
  new AuthApiError(status, codeOf(message), message);

export const E = {
  VALIDATION_BODY: () => new AuthApiError(400, "VALIDATION_ERROR", "Invalid body parameters"),
  VALIDATION_QUERY: () => new AuthApiError(400, "VALIDATION_ERROR", "Invalid query parameters"),
  UNAUTHORIZED: () => new AuthApiError(401, "UNAUTHORIZED", "Unauthorized"),
  INVALID_EMAIL: () => new AuthApiError(400, "INVALID_EMAIL", "Invalid email"),
  INVALID_EMAIL_OR_PASSWORD: () =>
    new AuthApiError(401, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password"),
  INVALID_PASSWORD: () => new AuthApiError(400, "INVALID_PASSWORD", "Invalid password"),
  PASSWORD_TOO_SHORT: () => new AuthApiError(400, "PASSWORD_TOO_SHORT", "Password too short"),
  PASSWORD_TOO_LONG: () => new AuthApiError(400, "PASSWORD_TOO_LONG", "Password too long"),
  /** better-auth's haveibeenpwned plugin: its code and wording for a password on a breach list. */
  PASSWORD_COMPROMISED: () =>
    new AuthApiError(
      400,
      "PASSWORD_COMPROMISED",
      "The password you entered has been compromised. Please choose a different password.",
    ),
  // better-call derives the code from the message (1.3.34 names none on the wire).
  USER_ALREADY_EXISTS: () =>
    new AuthApiError(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "User already exists. Use another email."),
  CREDENTIAL_ACCOUNT_NOT_FOUND: () =>
    new AuthApiError(400, "CREDENTIAL_ACCOUNT_NOT_FOUND", "Credential account not found"),
  SESSION_EXPIRED: () =>
    new AuthApiError(400, "SESSION_EXPIRED", "Session expired. Re-authenticate to perform this action."),
  // 1.3.34's freshSessionMiddleware names no code: better-call derives this one from the message.
  SESSION_NOT_FRESH: () => new AuthApiError(403, "SESSION_IS_NOT_FRESH", "Session is not fresh"),
  INVALID_TOKEN: (status = 400) => new AuthApiError(status, "INVALID_TOKEN", "Invalid token"),
  // better-call derives a code from the message when none is given (upper case, spaces to "_",
  // other characters dropped): BASE_ERROR_CODES.FAILED_TO_UNLINK_LAST_ACCOUNT goes out as this one.
  FAILED_TO_UNLINK_LAST_ACCOUNT: () =>
    new AuthApiError(400, "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT", "You can't unlink your last account"),
  ACCOUNT_NOT_FOUND: () => new AuthApiError(400, "ACCOUNT_NOT_FOUND", "Account not found"),
  EMAIL_PASSWORD_DISABLED: () =>
    new AuthApiError(400, "EMAIL_PASSWORD_DISABLED", "Email and password is not enabled"),
  VERIFICATION_DISABLED: () =>
    new AuthApiError(400, "VERIFICATION_EMAIL_NOT_ENABLED", "Verification email isn't enabled"),
  RESET_DISABLED: () => new AuthApiError(400, "RESET_PASSWORD_DISABLED", "Reset password isn't enabled"),
  CHANGE_EMAIL_DISABLED: () => new AuthApiError(400, "CHANGE_EMAIL_DISABLED", "Change email is disabled"),
  /** 1.3.34 answers 401 on sign-in, 400 on sign-up. */
  FAILED_TO_CREATE_SESSION: (status = 500) =>
    new AuthApiError(status, "FAILED_TO_CREATE_SESSION", "Failed to create session"),
  /** 1.3.34: 400 from sign-out without a session cookie, 500 from get-session when it fails. */
  FAILED_TO_GET_SESSION: (status: number) =>
    new AuthApiError(status, "FAILED_TO_GET_SESSION", "Failed to get session"),
  EMAIL_NOT_VERIFIED: () => new AuthApiError(403, "EMAIL_NOT_VERIFIED", "Email not verified"),
  EMAIL_IS_THE_SAME: () => new AuthApiError(400, "EMAIL_IS_THE_SAME", "Email is the same"),
  NO_FIELDS_TO_UPDATE: () => new AuthApiError(400, "NO_FIELDS_TO_UPDATE", "No fields to update"),
  CALLBACK_URL_REQUIRED: () => new AuthApiError(400, "CALLBACKURL_IS_REQUIRED", "callbackURL is required"),
  UNABLE_TO_CREATE_VERIFICATION: () =>
    new AuthApiError(500, "UNABLE_TO_CREATE_VERIFICATION", "Unable to create verification"),
  USER_ID_OR_SESSION_REQUIRED: () =>
    new AuthApiError(400, "EITHER_USERID_OR_SESSION_IS_REQUIRED", "Either userId or session is required"),
  ACCESS_TOKEN_NOT_FOUND: () => new AuthApiError(400, "ACCESS_TOKEN_NOT_FOUND", "Access token not found"),
  BANNED_USER: () =>
    new AuthApiError(
      403,
      "BANNED_USER",
      "You have been banned from this application. Please contact support if you believe this is an error.",
    ),
  RATE_LIMITED: () => new AuthApiError(429, null, "Too many requests. Please try again later."),
  NOT_FOUND: () => new AuthApiError(404, null, ""),
};

export function errorResponse(error: AuthApiError, headers: Headers): Response {
  headers.set("content-type", "application/json");
  const body =
    error.code === null ? { message: error.message } : { code: error.code, message: error.message };
  // An error without code or message has no body at all (better-call sends none); never `{message:""}`.
  if (error.code === null && error.message === "") {
    return new Response(null, { status: error.status, headers });
  }
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
