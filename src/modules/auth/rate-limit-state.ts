/** What a limit says about one answer: sent as the `RateLimit-*` headers. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/** The `RateLimit-*` headers of the contract. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
