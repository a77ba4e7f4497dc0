import { Sandbox } from './sandboxes';
import { startStack, Stack, StackOptions } from './stack';

/** A stack for KYB suites: the sandbox verification provider and bank rail. */
export interface KybStack extends Stack {
  verification: Sandbox;
  bankRail: Sandbox;
}

export interface KybStackOptions extends Pick<StackOptions, 'name' | 'env' | 'worker' | 'startApp'> {
  /** How long the sandbox provider takes to review an application. */
  reviewDelayMs: number;
}

export async function startKybStack(options: KybStackOptions): Promise<KybStack> {
  const { reviewDelayMs, ...rest } = options;
  const stack = await startStack({ ...rest, sandboxes: { reviewDelayMs } });
  return { ...stack, verification: stack.verification!, bankRail: stack.bankRail! };
}
