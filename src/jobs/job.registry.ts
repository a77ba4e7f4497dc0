import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../config/app.config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import { JOB_HANDLER } from './job-handler.decorator';
import { JobQueues, jobOptions } from './job-queues';
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
        // A worker that dies mid-job loses its lock after JOB_LOCK_MS; another worker takes the job over.
        lockDuration: this.config.jobLockMs,
        stalledInterval: this.config.jobLockMs,
        maxStalledCount: 3,
      });
      worker.on('error', (err) => this.logger.warn(`queue ${queue.name}: ${err.message}`));
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
    return handler.run(job.data, { attempt, finalAttempt: attempt >= (job.opts.attempts ?? 1) });
  }

  /** Upserts every periodic job's scheduler that Redis does not have (all of them at start). */
  private async keepSchedules(starting: boolean): Promise<void> {
    for (const job of this.periodic) {
      try {
        const queue = this.queues.queue(job);
        if (!starting && (await queue.getJobScheduler(job.name))) continue;
        // The scheduler names each run's job itself.
        await queue.upsertJobScheduler(job.name, { every: job.every!(this.config) }, { name: job.name, data: {}, opts: jobOptions(job) });
        if (!starting) this.logger.warn(`scheduler of ${job.name} was missing from Redis; re-created`);
      } catch (err) {
        this.logger.warn(`scheduler of ${job.name} not checked: ${(err as Error).message}`);
      }
    }
  }
}
