import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "./worker";

export const BASE_URL = "http://localhost:3000";
export const testEnv = env;

/** Calls the worker's fetch handler in-process, exactly as a request from outside would. */
export async function appFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request =
    input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), BASE_URL), init);
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** POSTs JSON the way the better-auth client does. */
export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return appFetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
