import type { DynamicModule, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import type { AnyJobDefinition } from './job.definition';
import { JobRegistration } from './job.registry';

type ModuleRef = Type<unknown> | DynamicModule | { forwardRef: () => ModuleRef } | Promise<DynamicModule>;

/**
 * The jobs a module tree registers (`JobsModule.forFeature`), read from the modules' metadata
 * without instantiating anything: what a process built from `root` can enqueue (or, for the
 * worker, handle).
 */
export function registeredJobs(root: ModuleRef): Map<string, AnyJobDefinition> {
  const jobs = new Map<string, AnyJobDefinition>();
  const seen = new Set<unknown>();
  const visit = (ref: ModuleRef | undefined): void => {
    if (!ref || ref instanceof Promise || seen.has(ref)) return;
    seen.add(ref);
    if ('forwardRef' in ref) return visit(ref.forwardRef());
    const dynamic = 'module' in ref ? ref : undefined;
    const type = (dynamic ? dynamic.module : ref) as Type<unknown>;
    const metadata = (key: string) => (Reflect.getMetadata(key, type) as unknown[] | undefined) ?? [];
    const providers = [...metadata(MODULE_METADATA.PROVIDERS), ...(dynamic?.providers ?? [])];
    for (const provider of providers) {
      const value = (provider as { useValue?: unknown }).useValue;
      if (value instanceof JobRegistration) for (const job of value.jobs) jobs.set(job.name, job);
    }
    for (const imported of [...metadata(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(imported as ModuleRef);
  };
  visit(root);
  return jobs;
}

/** The jobs `producer` can enqueue that `worker` registers no handler for (by name), sorted. */
export function jobsWithoutWorker(producer: ModuleRef, worker: ModuleRef): string[] {
  const handled = registeredJobs(worker);
  return [...registeredJobs(producer).keys()].filter((name) => !handled.has(name)).sort();
}
