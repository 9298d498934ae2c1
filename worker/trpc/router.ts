import { accessRouter } from "../access/router";
import { router } from "./init";
import { auditRouter } from "./routers/audit";
import { badgesRouter } from "./routers/badges";
import { campaignsRouter } from "./routers/campaigns";
import { dashboardRouter, donationsRouter } from "./routers/donations";
import { donorsRouter } from "./routers/donors";
import { organizationRouter } from "./routers/organization";
import { organizersRouter } from "./routers/organizers";
import { systemRouter } from "./routers/system";
import { usersRouter } from "./routers/users";

export const appRouter = router({
  system: systemRouter,
  access: accessRouter,
  organization: organizationRouter,
  campaigns: campaignsRouter,
  donors: donorsRouter,
  donations: donationsRouter,
  dashboard: dashboardRouter,
  badges: badgesRouter,
  users: usersRouter,
  audit: auditRouter,
  organizers: organizersRouter,
});

export type AppRouter = typeof appRouter;
