/**
 * The /organizers URL state's vocabulary: core/organizers.ts, the same lists the server's list input
 * is built from. Kept apart from the page component: the route's validateSearch runs in the main
 * bundle, and importing the page from it would pull the table, its dialogs and their dependencies
 * into every route's JavaScript.
 */
export { organizerSorts, organizerStatuses } from "@core/organizers";
