/** Server-only: the onboarding policy of this Worker's config (src/lib/auth/policy.ts). */
import { env } from "cloudflare:workers";
import { getConfig } from "../../worker/config";
import { onboardingPolicy } from "../../worker/organization/onboarding/service";

export const readPolicy = () => onboardingPolicy({ config: getConfig(env) });
