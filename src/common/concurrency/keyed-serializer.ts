/**
 * Runs the tasks given for one key one after another, in the order given, within this process;
 * tasks of different keys run concurrently. For work the database serialises per key anyway (a
 * row lock): the queue then waits here, holding nothing, instead of holding a pooled connection
 * each while it waits on the lock, so one busy key cannot take the whole pool from the others.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
