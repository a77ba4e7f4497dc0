import type { ServerResponse } from 'node:http';
import { fastify, FastifyInstance } from 'fastify';
import { callbackUrlProblem } from './callbacks';
import {
  CallCounter,
  DEFAULT_CROSS_BORDER_DELIVERY_RETRY_MS,
  DEFAULT_SETTLEMENT_STEP_MS,
  MAX_SETTLEMENT_STEP_MS,
  nonNegativeInteger,
  registerCrossBorderControlRoutes,
  StepTimers,
  Validated,
} from './cross-border';
import { EventLog } from './event-log';
import { installSandboxCommon, registerControlRoutes } from './faults';
import { requireIdempotencyKey } from './validation';

/**
 * The server both cross-border rails are built on (see "Bridge rail and payout rail: what they
 * share" in sandbox/README.md), so the two cannot drift apart in how they authenticate, fail,
 * create once per reference, settle, raise events and answer their control routes. A rail brings
 * only its resource: how a request is validated, and how the resource is created and settled.
 */

export interface CrossBorderRailServerOptions {
  apiKey: string;
  logger?: boolean;
  /** HMAC key of the `X-Rail-Signature` header on callbacks. */
  webhookSecret?: string;
  /** Where events are posted; none by default (they are still listed by `GET /v1/events`). */
  callbackUrl?: string | null;
  /** How long a resource waits for its outcome (a transfer `pending`, a payout `processing`); 0 creates it with its outcome. */
  settlementStepMs?: number;
  /** First wait between callback attempts; it doubles after each failed attempt. */
  deliveryRetryMs?: number;
}

/**
 * A return of the money a resource holds, asked for by `POST /v1/<collection>/:reference/return`:
 * `pending` for the settlement step, then `completed` (with `amount`, in the rail's own unit) or
 * `refused` (with a failure code).
 */
export interface ReturnView {
  status: 'pending' | 'completed' | 'refused';
  amount: number | null;
  failure_code: string | null;
  failure_message: string | null;
  requested_at: string;
  completed_at: string | null;
}

/** What the server needs of a resource; the rail's view has more. */
export interface CrossBorderResource {
  reference: string;
  status: string;
  /** Null until a return is asked for. */
  return: ReturnView | null;
  /** Changes with `status` and with the return's outcome. */
  updated_at: string;
}

/** Money a rail holds for us, in one currency (minor units). */
export interface HeldAmount {
  currency: string;
  amount: number;
}

/** How a return ends: the amount given back, or a refusal. */
export type ReturnOutcome = { amount: number } | { refused: { code: string; message: string } };

export interface CrossBorderRail<TRequest extends { reference: string }, TResource extends CrossBorderResource> {
  /** Names the rail in errors about its options, e.g. `bridge rail`. */
  name: string;
  defaultWebhookSecret: string;
  /** `POST /v1/<collection>`, `GET /v1/<collection>/:reference` and `GET /_sandbox/<collection>`. */
  collection: string;
  /** Events are `<eventPrefix>.<status>`, of the resource's status when raised. */
  eventPrefix: string;
  /** The status of a resource waiting for its settlement step. */
  unsettled: TResource['status'];
  /** `idempotencyKey` is the header, which the reference must equal. */
  validate(body: unknown, idempotencyKey: string): Validated<TRequest>;
  /**
   * A new resource: `unsettled`, to be settled after the step (or at once with a step of 0), or
   * already at its outcome, which is raised at once.
   */
  create(request: TRequest, settlementStepMs: number): TResource;
  /** Moves an unsettled resource to its outcome. */
  settle(resource: TResource): void;
  /**
   * A resource held where it was created, for ever (a sandbox magic value): never settled, no
   * event, so a person or a test can act while it waits (an operator's rejection, say).
   */
  holds?(resource: TResource): boolean;
  /** Whether the resource holds money that can be returned (a transfer the rail rejected holds none). */
  returnable(resource: TResource): boolean;
  /**
   * How a return asked for now will end, decided when it is asked for (from the resource as it is
   * then); `returnedStatus` is the resource's status once the money is back.
   */
  returnOutcome(resource: TResource): ReturnOutcome;
  returnedStatus: TResource['status'];
  /**
   * What the rail holds of ours in the resource: money it took and has neither delivered onward
   * nor given back (a return still pending counts as held); null when it holds none.
   */
  held(resource: TResource): HeldAmount | null;
  /** A copy to answer or raise: the stored resource keeps changing after it was sent. */
  view(resource: TResource): TResource;
  /** The rail's other `/v1` routes (faults and auth apply to them too). */
  routes?(app: FastifyInstance): void;
}

export function createCrossBorderRailServer<TRequest extends { reference: string }, TResource extends CrossBorderResource>(
  options: CrossBorderRailServerOptions,
  rail: CrossBorderRail<TRequest, TResource>,
): FastifyInstance {
  const initialStepMs = nonNegativeInteger(rail.name, 'settlementStepMs', options.settlementStepMs, DEFAULT_SETTLEMENT_STEP_MS, MAX_SETTLEMENT_STEP_MS);
  const deliveryRetryMs = nonNegativeInteger(rail.name, 'deliveryRetryMs', options.deliveryRetryMs, DEFAULT_CROSS_BORDER_DELIVERY_RETRY_MS);
  const callbackUrl = options.callbackUrl ?? null;
  if (callbackUrl !== null) {
    const problem = callbackUrlProblem(callbackUrl);
    if (problem !== null) throw new Error(`${rail.name}: callbackUrl ${problem}`);
  }
  const app = fastify({ logger: options.logger ?? false });

  let settlementStepMs = initialStepMs;
  const resources = new Map<string, TResource>();
  const calls = new CallCounter();
  const timers = new StepTimers();
  const events = new EventLog<string>({ secret: options.webhookSecret ?? rail.defaultWebhookSecret, url: callbackUrl, retryMs: deliveryRetryMs });

  installSandboxCommon(app, {
    apiKey: options.apiKey,
    onReset: () => {
      timers.clear();
      events.reset();
      resources.clear();
      calls.reset();
      settlementStepMs = initialStepMs;
    },
  });

  app.addHook('preClose', (done) => {
    timers.clear();
    events.close();
    done();
  });

  rail.routes?.(app);

  app.post(`/v1/${rail.collection}`, async (request, reply) => {
    const idempotencyKey = requireIdempotencyKey(request, reply);
    if (idempotencyKey === undefined) return reply;
    const result = rail.validate(request.body, idempotencyKey);
    if ('issues' in result) return reply.code(422).send({ error: 'invalid_request', details: result.issues });

    const { reference } = result.value;
    calls.request(reference);
    // Lookup and insert run in one synchronous step, so concurrent retries cannot both create.
    const existing = resources.get(reference);
    if (existing) return reply.code(200).header('idempotent-replayed', 'true').send(rail.view(existing));

    const resource = rail.create(result.value, settlementStepMs);
    resources.set(reference, resource);
    calls.created(reference);
    // An outcome reached in this request is posted after its answer; one reached by the timer, at once.
    const raise = (answered?: ServerResponse) => events.emit(`${rail.eventPrefix}.${resource.status}`, rail.view(resource), answered);
    if (rail.holds?.(resource)) {
      // Waits for ever; its status stays as created.
    } else if (resource.status !== rail.unsettled) {
      raise(reply.raw);
    } else if (settlementStepMs === 0) {
      rail.settle(resource);
      raise(reply.raw);
    } else {
      timers.after(settlementStepMs, () => {
        // A return asked for meanwhile cancelled the outcome.
        if (resource.return) return;
        rail.settle(resource);
        raise();
      });
    }
    return reply.code(201).send(rail.view(resource));
  });

  // Once per reference, like the create: a retry answers the return as it is now. The outcome is
  // decided at once and reached after the step (at once with a step of 0), raised as
  // `<prefix>.returned` or `<prefix>.return_refused`.
  app.post<{ Params: { reference: string } }>(`/v1/${rail.collection}/:reference/return`, async (request, reply) => {
    const resource = resources.get(request.params.reference);
    if (!resource) return reply.code(404).send({ error: 'not_found' });
    if (resource.return) return reply.code(200).header('idempotent-replayed', 'true').send(rail.view(resource));
    if (!rail.returnable(resource)) return reply.code(409).send({ error: 'not_returnable', message: `a ${resource.status} resource holds nothing to return` });
    const outcome = rail.returnOutcome(resource);
    resource.return = {
      status: 'pending',
      amount: null,
      failure_code: null,
      failure_message: null,
      requested_at: new Date().toISOString(),
      completed_at: null,
    };
    const finish = (answered?: ServerResponse) => {
      const ended = resource.return!;
      ended.completed_at = new Date().toISOString();
      resource.updated_at = ended.completed_at;
      if ('refused' in outcome) {
        Object.assign(ended, { status: 'refused', failure_code: outcome.refused.code, failure_message: outcome.refused.message });
        events.emit(`${rail.eventPrefix}.return_refused`, rail.view(resource), answered);
      } else {
        Object.assign(ended, { status: 'completed', amount: outcome.amount });
        resource.status = rail.returnedStatus;
        events.emit(`${rail.eventPrefix}.returned`, rail.view(resource), answered);
      }
    };
    if (settlementStepMs === 0) finish(reply.raw);
    else timers.after(settlementStepMs, () => finish());
    return reply.code(202).send(rail.view(resource));
  });

  // What the rail holds for us, for the platform's reconciliation of its ledger with the rail: the
  // total per currency and every resource holding part of it.
  app.get('/v1/balance', () => {
    const open = [...resources.values()].filter((resource) => rail.held(resource) !== null);
    const totals = new Map<string, number>();
    for (const resource of open) {
      const { currency, amount } = rail.held(resource)!;
      totals.set(currency, (totals.get(currency) ?? 0) + amount);
    }
    return {
      object: 'balance',
      balances: [...totals].map(([currency, amount]) => ({ currency, amount })),
      [`open_${rail.collection}`]: open.map((resource) => rail.view(resource)),
    };
  });

  app.get<{ Params: { reference: string } }>(`/v1/${rail.collection}/:reference`, async (request, reply) => {
    const resource = resources.get(request.params.reference);
    if (!resource) return reply.code(404).send({ error: 'not_found' });
    return rail.view(resource);
  });

  events.registerListRoute(app);

  registerControlRoutes(app, (control) => {
    control.get(`/_sandbox/${rail.collection}`, () => ({ [rail.collection]: [...resources.values()].map((resource) => rail.view(resource)) }));
    registerCrossBorderControlRoutes(control, calls, {
      get: () => settlementStepMs,
      set: (value) => {
        settlementStepMs = value;
      },
    });
    events.registerControlRoutes(control);
  });

  return app;
}
