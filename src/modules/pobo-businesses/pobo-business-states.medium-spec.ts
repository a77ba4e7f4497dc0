import { EntityManager } from 'typeorm';
import { eventually, Medium, startMedium } from '../../../test/support/medium';
import { AppError } from '../../common/errors/app-error';
import { PoboBusinessEntity } from './pobo-business.entity';
import { PoboBusinessStates } from './pobo-business-states.service';
import { PoboBusinessesModule } from './pobo-businesses.module';

/** PoboBusinessStates (the generic Transitions) against PostgreSQL: row lock, history, rollback, trigger. */
describe('PoboBusinessStates (medium)', () => {
  let m: Medium;
  let states: PoboBusinessStates;

  beforeAll(async () => {
    m = await startMedium({ name: 'states', imports: [PoboBusinessesModule] });
    states = m.app.get(PoboBusinessStates);
  });

  afterAll(() => m?.close());

  /** Locks the business and applies the change in a transaction of its own. */
  const move = (id: string, change: Parameters<PoboBusinessStates['apply']>[2], cause: string) =>
    m.dataSource.transaction(async (manager) => {
      const business = await states.lock(manager, id);
      if (!business) throw new Error(`business ${id} not found`);
      return states.apply(manager, business, change, cause);
    });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (err: unknown) => err,
    );

  it('moves a business: updates the row and appends one history row per field with its cause', async () => {
    const id = await m.insertBusiness();
    const before = await m.business(id);
    const acceptedAt = new Date('2030-01-02T03:04:05.000Z');

    const result = await m.dataSource.transaction(async (manager) => {
      const business = (await states.lock(manager, id))!;
      return states.apply(manager, business, { agreement: 'accepted', kyb: 'not_started' }, 'agreement_accepted', { agreementAcceptedAt: acceptedAt });
    });

    expect(result).toMatchObject({ agreementStatus: 'accepted', kybStatus: 'not_started', agreementAcceptedAt: acceptedAt });
    const after = await m.business(id);
    expect(after).toMatchObject({ agreement_status: 'accepted', kyb_status: 'not_started', naira_collection_status: 'not_requested' });
    expect(after.agreement_accepted_at).toEqual(acceptedAt);
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
    expect(await m.history(id)).toEqual([
      { field: 'agreement', from_status: 'pending', to_status: 'accepted', cause: 'agreement_accepted' },
      { field: 'kyb', from_status: 'agreement_pending', to_status: 'not_started', cause: 'agreement_accepted' },
    ]);
  });

  it('writes nothing for a move to the current status', async () => {
    const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'processing' });
    const before = await m.business(id);

    await move(id, { kyb: 'processing', agreement: 'accepted' }, 'noop');

    expect(await m.business(id)).toEqual(before);
    expect(await m.history(id)).toEqual([]);
  });

  it('refuses an illegal move with the module error and writes nothing', async () => {
    const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'not_started' });
    const before = await m.business(id);

    const err = await refusal(move(id, { kyb: 'verified' }, 'provider_verified'));

    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'kyb_state_conflict', message: 'Cannot change kyb status from not_started to verified' });
    expect(await m.business(id)).toEqual(before);
    expect(await m.history(id)).toEqual([]);
  });

  it('rolls back the earlier moves of a transaction that then makes an illegal one', async () => {
    const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'not_started' });
    const before = await m.business(id);

    const err = await refusal(
      m.dataSource.transaction(async (manager) => {
        const business = (await states.lock(manager, id))!;
        await states.apply(manager, business, { kyb: 'processing' }, 'kyb_submitted');
        // Legal on its own, and already written in this transaction.
        expect((await manager.findOneBy(PoboBusinessEntity, { id }))?.kybStatus).toBe('processing');
        await states.apply(manager, business, { agreement: 'pending' }, 'bad');
      }),
    );

    expect(err).toMatchObject({ code: 'kyb_state_conflict' });
    expect(await m.business(id)).toEqual(before);
    expect(await m.history(id)).toEqual([]);
  });

  describe('concurrent moves of one business', () => {
    /** Resolves once some backend of the spec's database waits for a lock (or after 3 s). */
    const lockWaiter = () =>
      eventually(
        () => m.sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`),
        ([row]) => row.n > 0,
        3_000,
        10,
      );

    /**
     * T1 locks the business and holds the lock until T2 (started after T1 locked) is seen waiting
     * for it, then applies `first`; T2 applies `second` to what its lock returns.
     */
    async function race(id: string, first: Parameters<PoboBusinessStates['apply']>[2], second: Parameters<PoboBusinessStates['apply']>[2]) {
      let locked!: () => void;
      const t1Locked = new Promise<void>((resolve) => (locked = resolve));
      let release!: () => void;
      const t1Release = new Promise<void>((resolve) => (release = resolve));
      let t2Saw: string | undefined;

      const t1 = m.dataSource.transaction(async (manager: EntityManager) => {
        const business = (await states.lock(manager, id))!;
        locked();
        await t1Release;
        return states.apply(manager, business, first, 'first');
      });
      await t1Locked;
      const t2 = m.dataSource.transaction(async (manager: EntityManager) => {
        const business = (await states.lock(manager, id))!;
        t2Saw = business.kybStatus;
        return states.apply(manager, business, second, 'second');
      });
      const [waiting] = await lockWaiter();
      release();
      const [r1, r2] = await Promise.allSettled([t1, t2]);
      return { waited: waiting.n > 0, t2Saw, r1, r2 };
    }

    it('serialises the same move: the second transaction sees it done and writes nothing', async () => {
      const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'not_started' });

      const { waited, t2Saw, r1, r2 } = await race(id, { kyb: 'processing' }, { kyb: 'processing' });

      expect(waited).toBe(true);
      expect(r1.status).toBe('fulfilled');
      expect(r2.status).toBe('fulfilled');
      expect(t2Saw).toBe('processing');
      expect((await m.business(id)).kyb_status).toBe('processing');
      expect(await m.history(id)).toEqual([{ field: 'kyb', from_status: 'not_started', to_status: 'processing', cause: 'first' }]);
    });

    it('serialises conflicting moves: exactly one succeeds, the other is refused from the state the first left', async () => {
      const id = await m.insertBusiness({ agreement_status: 'accepted', kyb_status: 'processing' });

      const { waited, t2Saw, r1, r2 } = await race(id, { kyb: 'verified' }, { kyb: 'declined' });

      expect(waited).toBe(true);
      expect(r1.status).toBe('fulfilled');
      expect(r2).toMatchObject({ status: 'rejected', reason: { code: 'kyb_state_conflict', message: 'Cannot change kyb status from verified to declined' } });
      expect(t2Saw).toBe('verified');
      expect((await m.business(id)).kyb_status).toBe('verified');
      expect(await m.history(id)).toEqual([{ field: 'kyb', from_status: 'processing', to_status: 'verified', cause: 'first' }]);
    });
  });

  it('keeps the history append-only: UPDATE, DELETE and TRUNCATE are refused by the trigger', async () => {
    const id = await m.insertBusiness();
    await move(id, { agreement: 'accepted', kyb: 'not_started' }, 'agreement_accepted');
    const history = await m.history(id);

    await expect(m.sql(`UPDATE business_status_history SET cause = 'rewritten' WHERE business_id = $1`, [id])).rejects.toThrow(
      'business_status_history is append-only',
    );
    await expect(m.sql('DELETE FROM business_status_history WHERE business_id = $1', [id])).rejects.toThrow('business_status_history is append-only');
    await expect(m.sql('TRUNCATE business_status_history')).rejects.toThrow('business_status_history is append-only');
    expect(await m.history(id)).toEqual(history);
  });

  it('lets the history go with its business when the business is deleted (the foreign key cascades)', async () => {
    const id = await m.insertBusiness();
    await move(id, { agreement: 'accepted', kyb: 'not_started' }, 'agreement_accepted');
    expect(await m.history(id)).toHaveLength(2);

    await m.sql('DELETE FROM agreement_links WHERE business_id = $1', [id]);
    await m.sql('DELETE FROM pobo_businesses WHERE id = $1', [id]);
    expect(await m.history(id)).toEqual([]);
  });
});
