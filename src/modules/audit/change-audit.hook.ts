import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuditAction, AuditLog, auditActor } from './audit-log.service';
import { IDEMPOTENCY_ROUTE } from '../idempotency';
import type { IdempotencyClaim } from '../idempotency';

/** What an audited change is described from: the request's path parameters, its body and its Idempotency-Key's claim. */
export interface AuditedRequest<B = unknown> {
  params: Record<string, string>;
  body: B;
  claim: IdempotencyClaim;
}

/** How an operation describes the change a dashboard user made with it, for the audit log. */
export type ChangeAudit<B = unknown> = (request: AuditedRequest<B>) => AuditAction;

/** The key of a route's audit description in its route config. */
export const CHANGE_AUDIT = 'changeAudit';

function changeAuditOf(config: unknown): ChangeAudit | undefined {
  const audit = (config as Record<string, unknown> | undefined)?.[CHANGE_AUDIT];
  return typeof audit === 'function' ? (audit as ChangeAudit) : undefined;
}

/**
 * The audit entry of every change a dashboard user makes through an operation that describes one
 * (`Operation({ dashboard: { audit } })`): registered on the request's Idempotency-Key claim, so
 * it is written in the transaction that commits the change, and only if it commits (a refusal, a
 * replay or a validation failure writes none), described from the body then, once validated. A
 * `preHandler` of those routes alone, after the claim's; installed after `installIdempotency`.
 */
export function installChangeAudit(app: INestApplication, fastify: FastifyInstance): void {
  const audit = app.get(AuditLog);
  const record = (describe: ChangeAudit) => (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const user = request.dashboardUser;
    const claim = request.idempotency;
    if (user && claim) {
      const params = request.params as Record<string, string>;
      audit.recordWithChange(claim, auditActor(user, request.ip), () => describe({ params, body: request.body, claim }));
    }
    done();
  };
  fastify.addHook('onRoute', (route) => {
    const describe = changeAuditOf(route.config);
    if (!describe) return;
    // Without a claim there is no change transaction to write the entry in.
    if ((route.config as Record<string, unknown> | undefined)?.[IDEMPOTENCY_ROUTE] === undefined)
      throw new Error(`${[route.method].flat().join(',')} ${route.url} audits its change but is not @Idempotent`);
    route.preHandler = [...[route.preHandler ?? []].flat(), record(describe)] as typeof route.preHandler;
  });
}
