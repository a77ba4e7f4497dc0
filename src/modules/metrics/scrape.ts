/** `read`, shared by every caller until it settles and the callers of that turn have had it: the gauges of one scrape share one read. */
export function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= read().finally(() => setImmediate(() => (pending = undefined))));
}
