/**
 * A module imported the first time it is asked for, so that starting Kasten does not load the code
 * of features a user may never touch (MCP clients, the PDF reader, each provider SDK). Asking again
 * gives the same module; an import that failed is tried again at the next ask. A failure is an error
 * naming what could not be loaded and why, made by `fail` (a plain Error by default).
 */
export function importOnFirstUse<T>(
  what: string,
  load: () => Promise<T>,
  fail: (message: string) => Error = (message) => new Error(message),
): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      const cause = error instanceof Error ? error.message : String(error);
      throw Object.assign(fail(`Kasten could not load ${what}: ${cause}`), { cause: error });
    }));
}
