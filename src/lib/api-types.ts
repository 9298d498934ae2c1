/**
 * The shapes of the API's answers and inputs, inferred from the router itself (issue 19): a page
 * names `RouterOutputs["donors"]["get"]` rather than a hand-written interface that could drift.
 * Types only: nothing of the worker reaches the browser (lint/browser-imports.grit).
 */
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../worker/api-router";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
