/** wrangler `main`: TanStack Start's server entry behind our API router. */
import startHandler from "@tanstack/react-start/server-entry";
import { createWorker } from "./app";

export default createWorker((request) => startHandler.fetch(request));
