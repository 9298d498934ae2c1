// `node --import ./scripts/clock-hook.mjs`: Node on TEST_TODAY (worker/lib/shifted-clock.ts), for
// the seed and the e2e tests of `TEST_TODAY=… npm run e2e`.
import { shiftClock } from "../worker/lib/shifted-clock.ts";

shiftClock(process.env.TEST_TODAY);
