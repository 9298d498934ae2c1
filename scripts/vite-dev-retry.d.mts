import type { Plugin } from "vite";

/** `vite dev`: replays a request workerd reset unread on a kept-alive connection (decision 051). */
export function replayUnreadRequests(): Plugin[];
