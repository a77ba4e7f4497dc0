import { useRef, useState } from 'react';

/**
 * Runs a money-moving action once at a time: a second click while the first is on its way does
 * nothing (and were it sent, its Idempotency-Key would make it the same action).
 */
export function useOnce(): (action: () => Promise<unknown>) => void {
  const inFlight = useRef(false);
  return (action) => {
    if (inFlight.current) return;
    inFlight.current = true;
    action()
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
      });
  };
}

/**
 * The Idempotency-Key of the one operation a button or form makes, and a way to start the next
 * one once it succeeded: a double click or a retry sends the same key, so the service acts once.
 */
export function useOperationKey(): [string, () => void] {
  const [key, setKey] = useState(() => crypto.randomUUID());
  return [key, () => setKey(crypto.randomUUID())];
}
