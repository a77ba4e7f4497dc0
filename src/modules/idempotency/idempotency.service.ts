import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { envelopeOf } from '../../common/http/answer';
import type { StatementPart } from '../../common/persistence/statement-part';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler } from '../../jobs';
import { IdempotencyKeyReusedError, IdempotencyLockLostError, IdempotencyRequestInProgressError } from './idempotency.errors';
import { IDEMPOTENCY_JOBS } from './idempotency.jobs';
import { ClaimParams, IdempotencyRepository, KeyRow } from './idempotency.repository';

/** Where an operation stands with its key; handed to the service that runs it. */
export interface IdempotencyClaim {
  readonly merchantId: string;
  readonly key: string;
  /** The holder's lock token: every write of the record names it. */
  readonly token: string;
  /** The status of the operation's success answer. */
  readonly successStatus: number;
  /** The route's success message: the stored answer is `{ message, response: result }`, as the route answers it. */
  readonly message: string;
  /** `started` for a fresh request; for a retry taking over, where the dead request left off. */
  recoveryPoint: string;
  /**
   * The resource the operation creates, fixed with the claim when its route names a kind
   * (`@Idempotent(…, { creates })`), so its id is recorded before any external effect; a retry
   * that takes over gets the same one.
   */
  readonly resourceId: string | null;
  /** The stored answer, once the operation committed it. */
  answer?: StoredAnswer;
  /**
   * A write that belongs with the operation's first committed change (the dashboard's audit entry
   * of a money-moving action): run once, in that change's transaction. See `withChange`.
   */
  changeRecord?: (manager: EntityManager) => Promise<void>;
}

export interface StoredAnswer {
  status: number;
  /** The exact bytes of the body. */
  body: string;
}

export type BeginOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; answer: StoredAnswer };

/** Reads ran into a concurrent claim this many times in a row: treat the key as in progress. */
const MAX_READS = 3;
const REAP_BATCH = 5_000;
/** Bytes of finished answers a process keeps for replays (see `answers`). */
const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

interface FinishedKey {
  fingerprint: string;
  answer: StoredAnswer;
}

/**
 * Idempotency-Keys, durable in PostgreSQL: claimed atomically, answers stored in the
 * transaction of the operation's own last writes, recovery points for operations with external
 * effects, and a lock separate from the retention so a retry takes over a request whose process
 * died. The rules, and how they compare with Stripe's design and the IETF draft, are in docs/decisions.md (Idempotency).
 */
@Injectable()
export class IdempotencyService {
  /**
   * Finished keys this process has replayed, until their retention ends: a finished key's answer
   * never changes, so a client retrying in a loop is answered what the database would give,
   * without the round trip. Bounded by bytes; one pushed out is read from the database again.
   */
  private readonly answers = new LRUCache<string, FinishedKey>({ maxSize: ANSWER_CACHE_BYTES, sizeCalculation: (entry) => entry.answer.body.length + 256 });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: IdempotencyRepository,
  ) {}

  /**
   * Claims the key for this request, or says what to answer instead: the stored answer of a
   * finished identical request (replay), 409 for different data, 423 while an identical request
   * holds the lock.
   */
  async begin(
    merchantId: string,
    key: string,
    fingerprint: string,
    answer: { status: number; message: string },
    resourceId: string | null,
  ): Promise<BeginOutcome> {
    const finished = this.answers.get(cacheKey(merchantId, key));
    if (finished) return this.finishedOutcome(finished, fingerprint);
    const params: ClaimParams = {
      merchantId,
      key,
      fingerprint,
      token: randomUUID(),
      lockMs: this.config.idempotency.lockMs,
      retentionMs: this.config.idempotency.retentionMs,
      resourceId,
    };
    for (let read = 0; read < MAX_READS; read++) {
      const row = await this.repository.claimOrRead(params);
      if (!row) continue;
      if (row.claimed) return this.claimed(params, row, answer);
      if (row.expired) {
        await this.repository.forgetExpired(merchantId, key);
        continue;
      }
      if (row.status === 'completed') {
        const entry = { fingerprint: row.fingerprint, answer: { status: row.response_status!, body: row.response_body! } };
        this.remember(merchantId, key, entry, row.expires_at);
        return this.finishedOutcome(entry, fingerprint);
      }
      if (row.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
      if ((row.lock_left_ms ?? 0) > 0) throw new IdempotencyRequestInProgressError(retryAfterSeconds(row.lock_left_ms!));
      const taken = await this.repository.takeOver(params);
      if (taken) return this.claimed(params, taken, answer);
      // Another retry took it over first, or the holder finished: read again.
    }
    throw new IdempotencyRequestInProgressError(1);
  }

  /**
   * Makes `write` part of the operation's first change that commits (a checkpoint's or the final
   * commit's transaction), so it exists exactly when the change does. Only for a fresh request: a
   * retry taking over after a crash may find that change committed, with its record.
   */
  withChange(claim: IdempotencyClaim | undefined, write: (manager: EntityManager) => Promise<void>): void {
    if (claim?.recoveryPoint === 'started') claim.changeRecord = write;
  }

  /**
   * Records, in the caller's transaction (or on its own), that the operation got past `point`,
   * and renews the lock. Call it before each external effect after the first (the claim itself
   * records the start, and the resource it fixed).
   */
  async checkpoint(claim: IdempotencyClaim | undefined, point: string, manager?: EntityManager): Promise<void> {
    if (!claim) return;
    if (manager) await this.writeChangeRecord(manager, claim);
    const held = await this.repository.checkpoint(manager, claim.merchantId, claim.key, claim.token, point, this.config.idempotency.lockMs);
    if (!held) throw new IdempotencyLockLostError();
    claim.recoveryPoint = point;
  }

  /**
   * Runs the operation's last writes and stores `answer(result)` as the key's answer in the same
   * transaction: both commit, or neither. Without a claim it is just the transaction.
   */
  async commit<T>(claim: IdempotencyClaim | undefined, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    let answer: StoredAnswer | undefined;
    const result = await this.dataSource.transaction(async (manager) => {
      const result = await work(manager);
      if (claim) await this.writeChangeRecord(manager, claim);
      if (claim) await this.store(manager, claim, (answer = answerOf(claim, result)));
      return result;
    });
    // Only once committed: the request then sends it.
    if (claim && answer) claim.answer = answer;
    return result;
  }

  /**
   * `commit` for an operation whose last writes are one statement and whose answer is known before
   * they run (a creation): `write` runs them together with the key's answer, a statement part
   * (see `StatementPart`) naming the CTE `answered`, and takes each of its rows from `answered`.
   * They and the answer then commit together or not at all, in one round trip instead of a
   * transaction's five. `write` says whether its rows were written: they were not when the lock
   * was lost to a retry. Without a claim `answered` is a row of its own.
   */
  async commitWith<T>(claim: IdempotencyClaim | undefined, result: T, write: (answered: StatementPart) => Promise<boolean>): Promise<T> {
    // An audit entry is written by a function of a transaction: such an operation uses `commit`.
    if (claim?.changeRecord) throw new Error('an audited change commits with commit(), in a transaction');
    const answer = claim && answerOf(claim, result);
    const stored = claim && answer && { merchantId: claim.merchantId, key: claim.key, token: claim.token, ...answer };
    if (!(await write(this.repository.answeredPart(stored)))) throw new IdempotencyLockLostError();
    if (claim) claim.answer = answer;
    return result;
  }

  private async writeChangeRecord(manager: EntityManager, claim: IdempotencyClaim): Promise<void> {
    const write = claim.changeRecord;
    claim.changeRecord = undefined;
    await write?.(manager);
  }

  /** Stores a refusal the operation answered (a business error), replayed from then on. */
  async storeRefusal(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
    await this.store(undefined, claim, answer);
    claim.answer = answer;
  }

  /** Gives the key back after an answer that stored nothing (see `IdempotencyRepository.release`). */
  async release(claim: IdempotencyClaim, mayHaveActed: boolean): Promise<void> {
    await this.repository.release(claim.merchantId, claim.key, claim.token, mayHaveActed);
  }

  @JobHandler(IDEMPOTENCY_JOBS.reap)
  async reap(): Promise<void> {
    while ((await this.repository.reap(REAP_BATCH)) === REAP_BATCH);
  }

  private async store(manager: EntityManager | undefined, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
    if (!(await this.repository.complete(manager, claim.merchantId, claim.key, claim.token, answer.status, answer.body))) throw new IdempotencyLockLostError();
  }

  private remember(merchantId: string, key: string, entry: FinishedKey, expiresAt: Date): void {
    const ttl = expiresAt.getTime() - Date.now();
    if (ttl > 0) this.answers.set(cacheKey(merchantId, key), entry, { ttl });
  }

  private finishedOutcome(entry: FinishedKey, fingerprint: string): BeginOutcome {
    if (entry.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
    return { kind: 'replay', answer: entry.answer };
  }

  private claimed(params: ClaimParams, row: KeyRow, answer: { status: number; message: string }): BeginOutcome {
    return {
      kind: 'claimed',
      claim: {
        merchantId: params.merchantId,
        key: params.key,
        token: params.token,
        successStatus: answer.status,
        message: answer.message,
        recoveryPoint: row.recovery_point,
        resourceId: row.resource_id,
      },
    };
  }
}

/** Whole seconds, at least one: the lock's remainder, capped so a live request is polled again soon. */
function retryAfterSeconds(lockLeftMs: number): number {
  return Math.min(Math.max(1, Math.ceil(lockLeftMs / 1000)), 2);
}

function cacheKey(merchantId: string, key: string): string {
  return `${merchantId}\n${key}`;
}

/** The answer of an operation's success: its route's status and the result's JSON, the bytes every replay sends. */
function answerOf(claim: IdempotencyClaim, result: unknown): StoredAnswer {
  return { status: claim.successStatus, body: JSON.stringify(envelopeOf(claim.message, result)) };
}
