/**
 * The onboarding policy (decision 045): whether a signed-up person may create an organization,
 * request one, or neither, and whom to write to. Public, so the sign-up and sign-in pages say what
 * comes next before anyone has an account. Read in-process on the server (the page renders with
 * it), over plain HTTP in the browser (no tRPC client on those pages: ./api.ts).
 */
import { queryOptions } from "@tanstack/react-query";
import { createIsomorphicFn } from "@tanstack/react-start";
import type { RouterOutputs } from "../api-types";
import { authApi } from "./api";

export type OnboardingPolicy = RouterOutputs["onboarding"]["policy"];

const readPolicy = createIsomorphicFn()
  .server(
    async (): Promise<OnboardingPolicy> => (await import("../../server/onboarding-policy")).readPolicy(),
  )
  .client((): Promise<OnboardingPolicy> => authApi.onboardingPolicy());

/** Under "auth", so a sign-in's clearing of the last user's queries keeps it (use-auth.ts). */
export const policyQueryOptions = () =>
  queryOptions({
    queryKey: ["auth", "policy"],
    queryFn: () => readPolicy(),
    staleTime: Number.POSITIVE_INFINITY,
  });
