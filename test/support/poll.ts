import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/** Polls until `accept` holds or the deadline passes; returns the last value either way. */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await sleep(everyMs);
  }
}
