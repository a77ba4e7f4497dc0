import { defineJob, defineQueue } from './job.definition';
import { checkJobWiring, FoundHandler, jobLockOptions, stalledJobTakeoverBoundMs } from './job.registry';

const queue = defineQueue('test', 1);
const alpha = defineJob<{ id: string }>({ queue, name: 'test.alpha', jobId: ({ id }) => `test.alpha.${id}` });
const beta = defineJob<{ id: string }>({ queue, name: 'test.beta', jobId: ({ id }) => `test.beta.${id}` });

const handler = (job: { name: string }, owner: string): FoundHandler => ({
  job: job as FoundHandler['job'],
  owner,
  run: () => Promise.resolve(),
});

describe('checkJobWiring', () => {
  it('accepts one handler per registered job', () => {
    expect(checkJobWiring([alpha, beta], [handler(alpha, 'A.run'), handler(beta, 'B.run')])).toEqual([]);
    expect(checkJobWiring([], [])).toEqual([]);
  });

  it('names a registered job without a handler', () => {
    expect(checkJobWiring([alpha, beta], [handler(alpha, 'A.run')])).toEqual(['job test.beta has no handler']);
  });

  it('names a job with two handlers and their owners', () => {
    expect(checkJobWiring([alpha], [handler(alpha, 'A.run'), handler(alpha, 'B.run')])).toEqual(['job test.alpha has 2 handlers: A.run, B.run']);
  });

  it('names a handler of a job no module registers', () => {
    expect(checkJobWiring([alpha], [handler(alpha, 'A.run'), handler(beta, 'B.run')])).toEqual(['B.run handles test.beta, which no module registers']);
  });

  it('names a job registered twice, also under one name by two definitions', () => {
    const alphaAgain = defineJob<{ id: string }>({ queue: defineQueue('other', 1), name: 'test.alpha', jobId: ({ id }) => id });
    expect(checkJobWiring([alpha, alpha], [handler(alpha, 'A.run')])).toEqual(['job test.alpha is registered twice']);
    expect(checkJobWiring([alpha, alphaAgain], [handler(alpha, 'A.run')])).toEqual(['job test.alpha is registered twice']);
  });

  it('lists every problem at once', () => {
    expect(checkJobWiring([alpha, alpha, beta], [handler(alpha, 'A.run'), handler(alpha, 'A2.run'), handler({ name: 'test.gamma' }, 'C.run')])).toEqual([
      'job test.alpha is registered twice',
      'job test.alpha has 2 handlers: A.run, A2.run',
      'job test.beta has no handler',
      'C.run handles test.gamma, which no module registers',
    ]);
  });
});

describe('jobLockOptions', () => {
  it("checks for stalled jobs often enough that a dead worker's job is back one check after its lock expired", () => {
    for (const lockMs of [1_000, 2_000, 30_000]) {
      const options = jobLockOptions(lockMs);
      expect(options.lockDuration).toBe(lockMs);
      // A dead worker's last check holds the others off for up to one interval, and a live worker's
      // check must then see the job (one more) before its lock can have run out: a live worker's
      // lock always has half of it left, so that is the earliest it can expire after a death.
      expect(2 * options.stalledInterval).toBeLessThan(lockMs / 2);
      expect(options.lockRenewTime).toBeLessThanOrEqual(lockMs / 2);
    }
    expect(stalledJobTakeoverBoundMs(30_000)).toBe(33_000);
    expect(stalledJobTakeoverBoundMs(2_000)).toBe(2_200);
  });
});
