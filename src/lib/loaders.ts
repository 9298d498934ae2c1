import { notFound } from "@tanstack/react-router";

/** Detail loaders: a record that does not exist (or belongs to another tenant) is a 404 page. */
export async function or404<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const code = (error as { data?: { code?: string } } | null)?.data?.code;
    if (code === "NOT_FOUND" || code === "BAD_REQUEST") throw notFound();
    throw error;
  }
}
