import { SetMetadata } from '@nestjs/common';
import { JobContext, JobDefinition, JobPayload } from './job.definition';

export const JOB_HANDLER = Symbol('JOB_HANDLER');

/**
 * Marks a provider method as the handler of `job`. The method's parameter must be the job's
 * payload type (checked by the compiler); the worker refuses to start when a job registered with
 * `JobsModule.forFeature` has no handler or two.
 */
export function JobHandler<P extends JobPayload>(job: JobDefinition<P>) {
  return <H extends (payload: P, context: JobContext) => Promise<unknown>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    SetMetadata(JOB_HANDLER, job)(target, key, descriptor);
  };
}
