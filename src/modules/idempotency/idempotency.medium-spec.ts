import { setTimeout as sleep } from 'node:timers/promises';
import { Medium, startMedium } from '../../../test/support/medium';
import { IdempotencyKeyReusedError, IdempotencyLockLostError, IdempotencyRequestInProgressError } from './idempotency.errors';
import { IdempotencyModule } from './idempotency.module';
import { IdempotencyClaim, IdempotencyService } from './idempotency.service';

/** The shortest lock the configuration takes: a dead request's key is taken over this long after its last renewal. */
const LOCK_MS = 1_000;
/** The success answer of the route the keys are for. */
const ANSWER = { status: 201, message: 'Done' };

/** IdempotencyService against PostgreSQL: claims, answers stored with the work, takeovers. */
describe('IdempotencyService (medium)', () => {
  let m: Medium;
  let keys: IdempotencyService;
  let merchantId: string;
  let n = 0;

  beforeAll(async () => {
    m = await startMedium({ name: 'idempotency', imports: [IdempotencyModule], env: { IDEMPOTENCY_LOCK_MS: String(LOCK_MS) } });
    keys = m.app.get(IdempotencyService);
    merchantId = await m.merchant();
  });

  afterAll(() => m?.close());

  const newKey = () => `medium-key-${process.pid}-${++n}-padding`;
  async function claim(key: string, fingerprint = 'fp-1'): Promise<IdempotencyClaim> {
    const outcome = await keys.begin(merchantId, key, fingerprint, ANSWER, null);
    if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
    return outcome.claim;
  }
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (err: unknown) => err,
    );

  it('stores the answer with the work, in one transaction, and replays it to an identical request', async () => {
    const key = newKey();
    const held = await claim(key);
    const result = await keys.commit(held, async (manager) => {
      await manager.query('SELECT 1');
      return { id: 'x_1' };
    });
    expect(result).toEqual({ id: 'x_1' });
    // Stored as the route answers it: the envelope with the route's message.
    expect(held.answer).toEqual({ status: 201, body: JSON.stringify({ message: 'Done', response: { id: 'x_1' } }) });
    expect(await keys.begin(merchantId, key, 'fp-1', ANSWER, null)).toEqual({ kind: 'replay', answer: held.answer });
  });

  it('stores nothing when the work fails: the key can be claimed again once given back', async () => {
    const key = newKey();
    const held = await claim(key);
    expect(await failure(keys.commit(held, () => Promise.reject(new Error('boom'))))).toEqual(new Error('boom'));
    expect(held.answer).toBeUndefined();
    await keys.release(held, false);
    expect((await claim(key)).recoveryPoint).toBe('started');
  });

  it('refuses other data under a key (409), and an identical request while the first still holds it (423)', async () => {
    const key = newKey();
    await claim(key);
    expect(await failure(keys.begin(merchantId, key, 'fp-other', ANSWER, null))).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await failure(keys.begin(merchantId, key, 'fp-1', ANSWER, null))).toBeInstanceOf(IdempotencyRequestInProgressError);
  });

  it("lets a retry take over a dead request's key once its lock ran out, from its last recovery point; the dead holder can no longer write", async () => {
    const key = newKey();
    const dead = await claim(key);
    await keys.checkpoint(dead, 'funds_reserved');
    await sleep(LOCK_MS + 200);
    const retry = await claim(key);
    expect(retry.recoveryPoint).toBe('funds_reserved');
    expect(retry.token).not.toBe(dead.token);
    expect(await failure(keys.commit(dead, () => Promise.resolve('late')))).toBeInstanceOf(IdempotencyLockLostError);
    await keys.commit(retry, () => Promise.resolve({ ok: true }));
    expect((await keys.begin(merchantId, key, 'fp-1', ANSWER, null)).kind).toBe('replay');
  });

  it('gives exactly one of many concurrent identical requests the claim', async () => {
    const key = newKey();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () =>
        keys.begin(merchantId, key, 'fp-1', ANSWER, null).then(
          (o) => o.kind,
          (err: unknown) => (err as Error).constructor.name,
        ),
      ),
    );
    expect(outcomes.filter((kind) => kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((kind) => kind !== 'claimed').every((kind) => kind === 'IdempotencyRequestInProgressError')).toBe(true);
  });
});
