import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import { JOB_HANDLER } from './job-handler.decorator';
import { JobQueues, jobOptions } from './job-queues';
import { bullmqTracing } from '../common/tracing/tracing';
import { AnyJobDefinition, JobContext, JobDefinition, QueueDefinition } from './job.definition';

/** The jobs a module registered with `JobsModule.forFeature`. */
export class JobRegistration {
  constructor(
    readonly queue: QueueDefinition,
    readonly jobs: readonly AnyJobDefinition[],
  ) {}
}

type Handler = (payload: unknown, context: JobContext) => Promise<unknown>;

export interface FoundHandler {
  job: AnyJobDefinition;
  owner: string;
  run: Handler;
}

/**
 * Stalled-job checks per lock period. BullMQ's check is mark-then-sweep (a script per queue, at
 * most one per interval across all workers): it moves back to the queue a job that an earlier
 * check saw active after the job's last lock renewal and whose lock has since expired. After a
 * worker dies, its own last check can hold the others' off for up to one interval, and a live
 * worker's check must then see the job once more. A dead worker's lock outlives it by at least
 * half of JOB_LOCK_MS; at a tenth of it per check, both have happened by then, so the job is back
 * at most one interval after its lock expired. Checking every JOB_LOCK_MS, as before, left it
 * waiting up to about three lock periods.
 */
export const STALLED_CHECKS_PER_LOCK = 10;

/** The BullMQ worker options that decide when a job held by a dead worker goes to another. */
export function jobLockOptions(lockMs: number): { lockDuration: number; lockRenewTime: number; stalledInterval: number; maxStalledCount: number } {
  return {
    lockDuration: lockMs,
    // BullMQ's default, stated because the bounds below depend on it: renewed every quarter to half
    // of the lock, so a live worker's lock always has at least half of it left.
    lockRenewTime: lockMs / 2,
    stalledInterval: Math.ceil(lockMs / STALLED_CHECKS_PER_LOCK),
    maxStalledCount: 3,
  };
}

/**
 * The longest a job waits, after its worker died, before it is back in the queue (where a worker
 * with a free slot starts it at once): the lock running out, then one stalled-job check.
 */
export function stalledJobTakeoverBoundMs(lockMs: number): number {
  return lockMs + jobLockOptions(lockMs).stalledInterval;
}

/**
 * Every registered job needs exactly one handler, and every handler a registered job; names are
 * unique. Returns the problems, empty when the wiring is sound.
 */
export function checkJobWiring(registered: readonly AnyJobDefinition[], handlers: readonly FoundHandler[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, AnyJobDefinition>();
  for (const job of registered) {
    if (byName.has(job.name)) problems.push(`job ${job.name} is registered twice`);
    byName.set(job.name, job);
  }
  for (const job of byName.values()) {
    const owners = handlers.filter((h) => h.job.name === job.name).map((h) => h.owner);
    if (owners.length === 0) problems.push(`job ${job.name} has no handler`);
    if (owners.length > 1) problems.push(`job ${job.name} has ${owners.length} handlers: ${owners.join(', ')}`);
  }
  for (const handler of handlers) {
    if (!byName.has(handler.job.name)) problems.push(`${handler.owner} handles ${handler.job.name}, which no module registers`);
  }
  return problems;
}

/**
 * The worker's side of the job registry: finds the jobs modules registered and their handlers,
 * refuses to start when they do not match, runs one BullMQ worker per queue, and keeps every
 * periodic job's scheduler in Redis, re-creating it on start and whenever it goes missing
 * (Redis restarted empty, a flush).
 */
@Injectable()
export class JobRegistry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobRegistry.name);
  private readonly handlers = new Map<string, FoundHandler>();
  private readonly workers: Worker[] = [];
  private periodic: AnyJobDefinition[] = [];
  /** The periodic jobs running in this process now. */
  private readonly periodicRunning = new Set<string>();
  private watchdog?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly queues: JobQueues,
  ) {}

  /** The registered job of this name, if any (the relay uses it for the job's options). */
  definition(name: string): JobDefinition | undefined {
    // The relay builds jobs from stored payloads, which the producer typed when it wrote them.
    return this.handlers.get(name)?.job as JobDefinition | undefined;
  }

  /** Every job this worker has a handler for. */
  jobNames(): string[] {
    return [...this.handlers.keys()];
  }

  async onApplicationBootstrap(): Promise<void> {
    const registrations = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is JobRegistration => instance instanceof JobRegistration);
    const registered = registrations.flatMap((r) => r.jobs);
    const found = this.findHandlers();
    const problems = checkJobWiring(registered, found);
    if (problems.length > 0) throw new Error(`job registry: ${problems.join('; ')}`);
    for (const handler of found) this.handlers.set(handler.job.name, handler);

    const connection = { ...redisOptionsFromUrl(this.config.redisUrl), maxRetriesPerRequest: null };
    for (const { queue } of registrations) {
      const worker = new Worker(queue.name, (job: Job) => this.run(job), {
        connection,
        prefix: this.config.queuePrefix,
        concurrency: queue.concurrency,
        ...jobLockOptions(this.config.jobLockMs),
        ...bullmqTracing(),
      });
      worker.on('error', (err) => this.logger.warn(`queue ${queue.name}: ${err.message}`));
      // Reported by whichever worker's check found it, so the takeover shows in the logs once.
      worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} lost its worker (lock expired); back in the queue`));
      worker.on('failed', (job, err) => this.logger.warn(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${err.message}`));
      this.workers.push(worker);
    }

    this.periodic = registered.filter((job) => job.every);
    await this.keepSchedules(true);
    const checkEvery = Math.min(...this.periodic.map((job) => job.every!(this.config)), 60_000);
    this.watchdog = setInterval(() => void this.keepSchedules(false), Math.max(checkEvery / 2, 100));
    this.watchdog.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.watchdog);
    // Active jobs finish first (BullMQ's close waits for them).
    await Promise.all(this.workers.map((worker) => worker.close()));
  }

  private findHandlers(): FoundHandler[] {
    const found: FoundHandler[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const job = this.reflector.get<AnyJobDefinition | undefined>(JOB_HANDLER, instance[method] as Handler);
        if (job) found.push({ job, owner: `${wrapper.name}.${method}`, run: (instance[method] as Handler).bind(instance) });
      }
    }
    return found;
  }

  private async run(job: Job): Promise<unknown> {
    const handler = this.handlers.get(job.name);
    // Only possible with a producer newer than this worker: fail for good, it will not get better.
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    const attempt = job.attemptsMade + 1;
    const context = { attempt, finalAttempt: attempt >= (job.opts.attempts ?? 1) };
    if (!handler.job.every) return handler.run(job.data, context);
    // A periodic run that finds this process's previous one still going ends at once: the next tick
    // comes anyway, and runs piled up behind a slow one (a chain node, a lock) would take every slot
    // of their queue and do the same work side by side.
    if (this.periodicRunning.has(job.name)) return undefined;
    this.periodicRunning.add(job.name);
    try {
      return await handler.run(job.data, context);
    } finally {
      this.periodicRunning.delete(job.name);
    }
  }

  /**
   * Upserts every periodic job's scheduler that Redis does not have (all of them at start). A
   * scheduler left by workers with another interval is removed first: BullMQ keeps its alignment
   * offset when only `every` changes, and once a run overruns the new interval, the next is aligned
   * to that offset, which can be most of the old interval away (a 10-minute schedule's offset held
   * a 250 ms one back for minutes).
   */
  private async keepSchedules(starting: boolean): Promise<void> {
    for (const job of this.periodic) {
      try {
        const queue = this.queues.queue(job);
        const every = job.every!(this.config);
        const existing = await queue.getJobScheduler(job.name);
        if (!starting && existing) continue;
        if (existing && Number(existing.every) !== every) await queue.removeJobScheduler(job.name);
        // The scheduler names each run's job itself.
        await queue.upsertJobScheduler(job.name, { every }, { name: job.name, data: {}, opts: jobOptions(job) });
        if (!starting) this.logger.warn(`scheduler of ${job.name} was missing from Redis; re-created`);
      } catch (err) {
        this.logger.warn(`scheduler of ${job.name} not checked: ${(err as Error).message}`);
      }
    }
  }
}
