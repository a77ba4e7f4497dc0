import { randomBytes } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { Queue } from 'bullmq';
import { EntityManager } from 'typeorm';
import { eventually, Medium, sleep, startMedium } from '../../test/support/medium';
import { loadConfig } from '../config/app.config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import { defineJob, definePeriodicJob, defineQueue, JobContext, JobHandler, JobsModule, Outbox } from '.';
import { OutboxRelay } from './outbox.relay';

/** Names of this run only: queues, jobs and job ids never meet another spec's. */
const TAG = `medium-${randomBytes(4).toString('hex')}`;
const QUEUE = defineQueue(TAG, 1);
const RECORD = defineJob<{ key: string }>({
  queue: QUEUE,
  name: `${TAG}.record`,
  jobId: ({ key }) => `${TAG}.record.${key}`,
  attempts: 1,
  keepCompletedS: 60,
  keepFailedS: 60,
});
/** Fails its first attempt. */
const FLAKY = defineJob<{ key: string }>({ queue: QUEUE, name: `${TAG}.flaky`, jobId: ({ key }) => `${TAG}.flaky.${key}`, attempts: 2, backoffMs: 10 });

interface Call {
  job: string;
  key: string;
  context: JobContext;
  at: number;
}

/** The handlers of the spec's jobs: they record every call. */
@Injectable()
class Recorder {
  readonly calls: Call[] = [];
  private waiters: { accept: (call: Call) => boolean; resolve: (call: Call) => void }[] = [];

  @JobHandler(RECORD)
  record({ key }: { key: string }, context: JobContext): Promise<void> {
    this.called({ job: RECORD.name, key, context, at: Date.now() });
    return Promise.resolve();
  }

  @JobHandler(FLAKY)
  flaky({ key }: { key: string }, context: JobContext): Promise<void> {
    this.called({ job: FLAKY.name, key, context, at: Date.now() });
    return context.attempt === 1 ? Promise.reject(new Error('first attempts fail')) : Promise.resolve();
  }

  /** The first call (past or future) that `accept` takes; rejects after `timeoutMs`. */
  next(accept: (call: Call) => boolean, timeoutMs = 3_000): Promise<Call> {
    const found = this.calls.find(accept);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching job call within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        accept,
        resolve: (call) => {
          clearTimeout(timer);
          resolve(call);
        },
      });
    });
  }

  private called(call: Call): void {
    this.calls.push(call);
    for (const waiter of this.waiters.filter((w) => w.accept(call))) waiter.resolve(call);
    this.waiters = this.waiters.filter((w) => !w.accept(call));
  }
}

@Module({ imports: [JobsModule.forFeature(QUEUE, [RECORD, FLAKY])], providers: [Recorder] })
class RecorderModule {}

/** A periodic job slower than its interval, in a queue with room for several jobs at once. */
const SLOW_QUEUE = defineQueue(`${TAG}-slow`, 4);
const SLOW = definePeriodicJob(SLOW_QUEUE, `${TAG}.slow`, () => 50);

@Injectable()
class SlowPeriodic {
  runs = 0;
  private running = 0;
  mostAtOnce = 0;

  @JobHandler(SLOW)
  async run(): Promise<void> {
    this.runs++;
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
    await sleep(300);
    this.running--;
  }
}

@Module({ imports: [JobsModule.forFeature(SLOW_QUEUE, [SLOW])], providers: [SlowPeriodic] })
class SlowPeriodicModule {}

/** A periodic job every 100 ms whose runs take longer than that, so each next run is a catch-up. */
const OVERRUN_QUEUE = defineQueue(`${TAG}-overrun`, 1);
const OVERRUN = definePeriodicJob(OVERRUN_QUEUE, `${TAG}.overrun`, () => 100);

@Injectable()
class OverrunPeriodic {
  runs = 0;

  @JobHandler(OVERRUN)
  async run(): Promise<void> {
    this.runs++;
    await sleep(150);
  }
}

@Module({ imports: [JobsModule.forFeature(OVERRUN_QUEUE, [OVERRUN])], providers: [OverrunPeriodic] })
class OverrunPeriodicModule {}

const key = () => randomBytes(4).toString('hex');
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('Outbox.enqueue (medium)', () => {
  let m: Medium;
  let outbox: Outbox;

  beforeAll(async () => {
    m = await startMedium({ name: 'outbox', imports: [RecorderModule] });
    outbox = m.app.get(Outbox);
  });

  afterAll(() => m?.close());

  it('writes nothing when the transaction rolls back', async () => {
    const k = key();
    const err = await failure(
      m.dataSource.transaction(async (manager) => {
        await outbox.enqueue(manager, RECORD, { key: k });
        throw new Error('the change failed');
      }),
    );

    expect(err).toEqual(new Error('the change failed'));
    expect((await m.outbox()).filter((row) => row.payload.key === k)).toEqual([]);
  });

  it('writes the job with its deterministic id when the transaction commits', async () => {
    const k = key();
    await m.dataSource.transaction((manager) => outbox.enqueue(manager, RECORD, { key: k }));

    expect((await m.outbox()).filter((row) => row.payload.key === k)).toEqual([{ job_name: RECORD.name, job_id: `${TAG}.record.${k}`, payload: { key: k } }]);
  });
});

describe('OutboxRelay and JobRegistry (medium, worker)', () => {
  let m: Medium;
  let outbox: Outbox;
  let recorder: Recorder;

  beforeAll(async () => {
    m = await startMedium({ name: 'relay', worker: true, imports: [RecorderModule, SlowPeriodicModule], quiet: [/no job named/] });
    outbox = m.app.get(Outbox);
    recorder = m.app.get(Recorder);
    // The relay's fallback poll is stopped: from here on only the outbox trigger's NOTIFY wakes it.
    const relay = m.app.get<OutboxRelay, { poll?: NodeJS.Timeout }>(OutboxRelay, { strict: false });
    expect(relay.poll).toBeDefined();
    clearInterval(relay.poll);
  });

  afterAll(() => m?.close());

  const commit = (work: (manager: EntityManager) => Promise<void>) => m.dataSource.transaction(work);
  const outboxEmpty = async () =>
    expect(
      await eventually(
        () => m.outbox(),
        (rows) => rows.length === 0,
        3_000,
        20,
      ),
    ).toEqual([]);
  const callsOf = (k: string) => recorder.calls.filter((call) => call.key === k);

  it('relays a committed job to its handler promptly, woken by NOTIFY, and deletes the row', async () => {
    const k = key();
    await commit((manager) => outbox.enqueue(manager, RECORD, { key: k }));
    const committedAt = Date.now();

    const call = await recorder.next((c) => c.key === k);

    expect(call.at - committedAt).toBeLessThan(1_000);
    expect(call).toMatchObject({ job: RECORD.name, context: { attempt: 1, finalAttempt: true } });
    await outboxEmpty();
  });

  it('runs a job id once, however often it is enqueued', async () => {
    const k = key();
    await commit(async (manager) => {
      await outbox.enqueue(manager, RECORD, { key: k });
      await outbox.enqueue(manager, RECORD, { key: k });
    });
    await recorder.next((c) => c.key === k);
    await outboxEmpty();
    // Again once it has run: the completed job is kept (keepCompletedS), so its id is still taken.
    await commit((manager) => outbox.enqueue(manager, RECORD, { key: k }));
    await outboxEmpty();
    await sleep(300);

    expect(callsOf(k)).toHaveLength(1);
  });

  it('relays nothing of a transaction that rolled back', async () => {
    const k = key();
    await failure(
      commit(async (manager) => {
        await outbox.enqueue(manager, RECORD, { key: k });
        throw new Error('rolled back');
      }),
    );
    // A later commit wakes the relay; the rolled-back job must still not run.
    const later = key();
    await commit((manager) => outbox.enqueue(manager, RECORD, { key: later }));
    await recorder.next((c) => c.key === later);
    await sleep(200);

    expect(callsOf(k)).toEqual([]);
  });

  it('never runs a periodic job twice at once in one process, however slower than its interval a run is', async () => {
    const slow = m.app.get(SlowPeriodic);
    await eventually(
      () => Promise.resolve(slow.runs),
      (runs) => runs >= 3,
      5_000,
      20,
    );
    expect(slow.mostAtOnce).toBe(1);
  });

  it('retries a failed attempt with backoff, telling the handler the attempt and whether it is the last', async () => {
    const k = key();
    await commit((manager) => outbox.enqueue(manager, FLAKY, { key: k }));

    await recorder.next((c) => c.key === k && c.context.attempt === 2);

    expect(callsOf(k).map((c) => c.context)).toEqual([
      { attempt: 1, finalAttempt: false },
      { attempt: 2, finalAttempt: true },
    ]);
  });

  it('leaves rows of a job no module registers for a worker that knows it, and relays the rest, however many there are', async () => {
    const unknown = `${TAG}.unknown`;
    // More than one relay pass takes: unknown rows must not hold up the known ones behind them.
    await m.sql(`INSERT INTO outbox (job_name, job_id, payload) SELECT $1, $1 || '.' || n, '{}' FROM generate_series(1, 150) n`, [unknown]);
    const k = key();
    await commit((manager) => outbox.enqueue(manager, RECORD, { key: k }));

    await recorder.next((c) => c.key === k);
    const rows = await eventually(
      () => m.outbox(),
      (r) => r.every((row) => row.job_name === unknown),
      3_000,
      20,
    );

    expect(rows).toHaveLength(150);
    expect(rows.every((row) => row.job_name === unknown)).toBe(true);
    await m.sql('DELETE FROM outbox WHERE job_name = $1', [unknown]);
  });
});

describe('JobRegistry over a schedule other workers left with another interval (medium, worker)', () => {
  let m: Medium | undefined;

  afterAll(() => m?.close());

  it('runs the job at its own interval, not held back by the old schedule', async () => {
    const queuePrefix = `medium-overrun-${process.pid}-${key()}`;
    // Workers configured otherwise left the schedule: every 10 minutes, aligned 5 minutes into each.
    const queue = new Queue(OVERRUN_QUEUE.name, { connection: redisOptionsFromUrl(loadConfig({ NODE_ENV: 'test' }).redisUrl), prefix: queuePrefix });
    try {
      await queue.upsertJobScheduler(OVERRUN.name, { every: 600_000, offset: 300_000 }, { name: OVERRUN.name, data: {} });
    } finally {
      await queue.close();
    }
    m = await startMedium({ name: 'overrun', queuePrefix, worker: true, imports: [OverrunPeriodicModule] });
    const overrun = m.app.get(OverrunPeriodic);
    // Every run overruns the 100 ms: kept at the old offset, the next run would wait up to five minutes.
    expect(
      await eventually(
        () => Promise.resolve(overrun.runs),
        (runs) => runs >= 8,
        5_000,
        50,
      ),
    ).toBeGreaterThanOrEqual(8);
  });
});
