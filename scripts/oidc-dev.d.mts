export const DEV_CLIENT_ID: string;
export const DEV_CLIENT_SECRET: string;
export interface OidcServer {
  issuer: string;
  port: number;
  stats: { jwksRequests: number; tokenRequests: number };
  close(): Promise<void>;
}
export function startOidcServer(opts?: {
  port?: number;
  host?: string;
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  testHooks?: boolean;
  accessTokenTtl?: number;
  idTokenTtl?: number;
}): Promise<OidcServer>;
