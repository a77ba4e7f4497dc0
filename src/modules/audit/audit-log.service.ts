import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page, PageRequest } from '../../common/paging';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { AuditEntryNotFoundError } from './audit.errors';
import { AuditFilter, AuditRepository } from './audit.repository';
import { mapAuditEntry } from './audit-entry.mapper';
import type { AuditEntryDto } from './dto/audit-entry.dto';

/** Who did it, from where: a signed-in user, or (a failed login) only an e-mail. */
export interface AuditActor {
  merchantId: string;
  userId: string | null;
  email: string | null;
  ip: string;
}

/** The actor of a signed-in dashboard user's request. */
export function auditActor(user: { merchantId: string; userId: string; email: string }, ip: string): AuditActor {
  return { merchantId: user.merchantId, userId: user.userId, email: user.email, ip };
}

/** What was done: `<object>.<verb>`, the object's id, and what else says what changed (never a secret). */
export interface AuditAction {
  action: string;
  objectId?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

/**
 * The merchant's audit log: every change made from the dashboard is recorded in the change's own
 * transaction (no entry for a change that rolled back, no change without its entry).
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger(AuditLog.name);

  constructor(
    private readonly repository: AuditRepository,
    private readonly idempotency: IdempotencyService,
  ) {}

  async record(manager: EntityManager, actor: AuditActor, what: AuditAction): Promise<void> {
    await this.repository.insert(manager, entry(actor, what));
  }

  /**
   * Records what `describe` says in the transaction of the change that the operation of `claim` (a
   * dashboard action's Idempotency-Key) commits first, so the entry exists exactly when the change
   * does; a replay records nothing again. Described then, once the request has passed validation.
   */
  recordWithChange(claim: IdempotencyClaim, actor: AuditActor, describe: () => AuditAction): void {
    this.idempotency.withChange(claim, (manager) => this.record(manager, actor, describe()));
  }

  /**
   * An event that changed nothing (a failed login): written on its own, and not awaited by the
   * answer, so a refusal takes the same time whether or not it names a known account.
   */
  recordInBackground(actor: AuditActor, what: AuditAction): void {
    this.repository.insertAlone(entry(actor, what)).catch((err: Error) => this.logger.warn(`audit entry ${what.action} not written: ${err.message}`));
  }

  async get(merchantId: string, id: string): Promise<AuditEntryDto> {
    const row = isId('aud', id) ? await this.repository.find(merchantId, id) : undefined;
    if (!row) throw new AuditEntryNotFoundError();
    return mapAuditEntry(row);
  }

  list(merchantId: string, filter: AuditFilter, query: PageRequest): Promise<Page<AuditEntryDto>> {
    return listPage(
      query,
      'aud',
      (limit, after) => this.repository.page(merchantId, filter, limit, after),
      mapAuditEntry,
      (item) => item.auditEntryId,
    );
  }
}

function entry(actor: AuditActor, what: AuditAction) {
  return {
    id: newId('aud'),
    merchantId: actor.merchantId,
    userId: actor.userId,
    userEmail: actor.email,
    action: what.action,
    objectId: what.objectId ?? null,
    ip: actor.ip,
    details: what.details ?? {},
  };
}
