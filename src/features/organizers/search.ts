/**
 * The /organizers URL state's vocabulary. Kept apart from the page component: the route's
 * validateSearch runs in the main bundle, and importing the page from it would pull the table,
 * its dialogs and their dependencies into every route's JavaScript.
 */
export const organizerStatuses = ["active", "banned", "invited", "expired"] as const;
export const organizerSorts = ["joined", "name", "email", "organization", "status"] as const;
