import { accessRouter } from "./access/router";
import { badgesRouter } from "./badges/router";
import { campaignsRouter } from "./campaigns/router";
import { dashboardRouter } from "./dashboard/router";
import { donationsRouter } from "./donations/router";
import { donorsRouter } from "./donors/router";
import { importsRouter } from "./imports/router";
import { onboardingRouter } from "./organization/onboarding/router";
import { organizationRouter } from "./organization/router";
import { organizersRouter } from "./organizers/router";
import { plansRouter } from "./plans/router";
import { receiptsRouter } from "./receipts/router";
import { reportsRouter } from "./reports/router";
import { thanksRouter } from "./thanks/router";
import { router } from "./trpc/init";
import { systemRouter } from "./trpc/routers/system";
import { auditRouter } from "./users/audit/router";
import { usersRouter } from "./users/router";

export const appRouter = router({
  system: systemRouter,
  access: accessRouter,
  organization: organizationRouter,
  onboarding: onboardingRouter,
  campaigns: campaignsRouter,
  donors: donorsRouter,
  donations: donationsRouter,
  dashboard: dashboardRouter,
  badges: badgesRouter,
  users: usersRouter,
  audit: auditRouter,
  organizers: organizersRouter,
  imports: importsRouter,
  plans: plansRouter,
  receipts: receiptsRouter,
  thanks: thanksRouter,
  reports: reportsRouter,
});

export type AppRouter = typeof appRouter;
