interface AuthUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  role: string;
  banned?: boolean | null;
  createdAt: string;
  updatedAt: string;
}

/** The user as sign-in and sign-up answer it (better-auth 1.3: no role or ban fields there). */
export type SignedInUser = Omit<AuthUser, "role" | "banned">;

interface AuthSession {
  id: string;
  userId: string;
  expiresAt: string;
  token?: string;
  ipAddress?: string | null;
  userAgent?: string | null;
  impersonatedBy?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionPayload {
  session: AuthSession;
  user: AuthUser;
}

/** SPEC §3 "Client auth state". */
export interface AuthState {
  isAuthenticated: boolean;
  isLoading: boolean;
  user: AuthUser | null;
  sessionChecked: boolean;
  error: string | null;
  isImpersonating: boolean;
}

/** An error with the spec's {code, message} shape and the HTTP status it came with. */
/**
 * Refusals about the new password itself (length, or on the list of common passwords: decision
 * 018); forms show them next to the password field rather than above the form.
 */
const NEW_PASSWORD_ERRORS: ReadonlySet<string> = new Set([
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "PASSWORD_COMPROMISED",
]);

export function isNewPasswordError(error: unknown): boolean {
  return error instanceof AuthError && NEW_PASSWORD_ERRORS.has(error.code);
}

export class AuthError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "AuthError";
  }
}
