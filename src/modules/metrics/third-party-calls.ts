import { Gauge, Histogram, Registry } from 'prom-client';
import { CircuitOpenError, CircuitStateName, ProviderError } from '../../common/providers/provider-http-client';

/** A call's duration buckets, in seconds: from a local chain's answer to a provider's whole timeout and retry. */
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const CIRCUIT_STATES: CircuitStateName[] = ['closed', 'half_open', 'open'];

/** What a call to a third party came to. */
export type CallOutcome = 'ok' | 'refused' | 'circuit_open' | 'failed';

export interface MeasureOptions {
  /** The adapter's circuit, reported as `third_party_circuit_state`. */
  circuit?: { readonly circuit: CircuitStateName };
  /** Failures that are the third party refusing what was asked (a 4xx), not failing: besides a non-retryable ProviderError. */
  refused?: (err: unknown) => boolean;
}

/**
 * Calls to third parties (the verification provider, each rail, each chain's RPC, SMTP), measured
 * at the adapter's interface: each call of an adapter method is one observation labelled by the
 * provider, the method (the operation) and the outcome, retries included. Labels are names the
 * code fixes, never a path or an argument.
 */
export class ThirdPartyCalls {
  private readonly duration: Histogram<'provider' | 'operation' | 'outcome'>;
  private readonly circuits = new Map<string, { readonly circuit: CircuitStateName }>();
  private readonly lastCalls = new Map<string, { outcome: CallOutcome; at: Date }>();
  private readonly measured = new Set<string>();

  constructor(
    registry: Registry,
    private readonly enabled = true,
  ) {
    this.duration = new Histogram({
      name: 'third_party_call_duration_seconds',
      help: 'Calls to third parties by provider, operation and outcome (ok, refused, circuit_open, failed), retries included',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: CALL_BUCKETS,
      registers: [registry],
    });
    const circuits = this.circuits;
    new Gauge({
      name: 'third_party_circuit_state',
      help: "Each provider's circuit breaker: 1 for its current state (closed, half_open, open), 0 for the others",
      labelNames: ['provider', 'state'],
      registers: [registry],
      collect() {
        for (const [provider, { circuit }] of circuits) for (const state of CIRCUIT_STATES) this.set({ provider, state }, circuit === state ? 1 : 0);
      },
    });
  }

  /** Every provider this process has measured, by name. */
  states(): Record<string, ThirdPartyState> {
    return Object.fromEntries(
      [...this.measured].sort().map((provider) => [provider, { circuit: this.circuits.get(provider)?.circuit, lastCall: this.lastCalls.get(provider) }]),
    );
  }

  /**
   * `adapter`, with each of its class's methods that answers a promise timed and counted. Calls the
   * adapter makes to itself are not: the methods run on the adapter, not on what this answers.
   */
  measure<T extends object>(provider: string, adapter: T, options: MeasureOptions = {}): T {
    if (options.circuit) this.circuits.set(provider, options.circuit);
    this.measured.add(provider);
    // Counting off: the adapter itself, its circuit still reported to the readiness.
    if (!this.enabled) return adapter;
    const refused = options.refused ?? (() => false);
    const duration = this.duration;
    const lastCalls = this.lastCalls;
    const ended = (end: (labels: { outcome: CallOutcome }) => void, outcome: CallOutcome) => {
      end({ outcome });
      lastCalls.set(provider, { outcome, at: new Date() });
    };
    const wrappers = new WeakMap<object, unknown>();
    return new Proxy(adapter, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        // The class's methods: an own property (a function set on the instance, a test's spy) is the adapter's business.
        if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor' || Object.hasOwn(target, property)) return value;
        let wrapped = wrappers.get(value);
        if (!wrapped) {
          const method = value as (...args: unknown[]) => unknown;
          wrapped = (...args: unknown[]): unknown => {
            const end = duration.startTimer({ provider, operation: property });
            let result: unknown;
            try {
              result = method.apply(target, args);
            } catch (err) {
              ended(end, outcomeOf(err, refused));
              throw err;
            }
            if (!(result instanceof Promise)) return result;
            return result.then(
              (answer: unknown) => {
                ended(end, 'ok');
                return answer;
              },
              (err: unknown) => {
                ended(end, outcomeOf(err, refused));
                throw err;
              },
            );
          };
          wrappers.set(value, wrapped);
        }
        return wrapped;
      },
    });
  }
}

/** What the operator port's readiness tells of a third party: its circuit (HTTP providers), its last call in this process. */
export interface ThirdPartyState {
  circuit?: CircuitStateName;
  lastCall?: { outcome: CallOutcome; at: Date };
}

function outcomeOf(err: unknown, refused: (err: unknown) => boolean): CallOutcome {
  if (err instanceof CircuitOpenError) return 'circuit_open';
  if ((err instanceof ProviderError && !err.retryable) || refused(err)) return 'refused';
  return 'failed';
}
