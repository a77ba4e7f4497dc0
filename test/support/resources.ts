/**
 * What a test stack started (databases, servers, processes, connections), released in reverse
 * order by `close`, also when a later step of building the stack fails (`build`): a suite whose
 * set-up breaks halfway leaves nothing running behind it.
 */
export class Resources {
  private readonly releases: (() => Promise<unknown>)[] = [];

  /** Starts a resource and records how it is released. */
  async add<R>(start: Promise<R>, release: (resource: R) => Promise<unknown>): Promise<R> {
    const resource = await start;
    this.releases.push(() => release(resource));
    return resource;
  }

  /** Releases everything, newest first; one that fails to release does not keep the others. */
  async close(): Promise<void> {
    const failures: unknown[] = [];
    for (const release of this.releases.splice(0).reverse()) await release().catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw new AggregateError(failures, 'some test resources did not release');
  }

  /** Runs the rest of a stack's set-up; if it fails, what was started is released before the error goes on. */
  async build<T>(steps: () => Promise<T>): Promise<T> {
    try {
      return await steps();
    } catch (err) {
      await this.close().catch(() => undefined);
      throw err;
    }
  }
}
