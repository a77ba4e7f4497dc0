import type { SandboxUnderTest } from '../../sandbox/common/sandbox-under-test';

/**
 * For an adapter's spec: the sandbox started and listening on a free port for the spec file's
 * tests, reset after each and stopped after all. Answers its base URL, known once it listens.
 */
export function listeningSandbox<TOptions>(sandbox: SandboxUnderTest<TOptions>): () => string {
  let baseUrl: string | undefined;
  beforeAll(async () => {
    await sandbox.start();
    baseUrl = await sandbox.listen();
  });
  afterAll(() => sandbox.stop());
  afterEach(() => sandbox.reset());
  return () => {
    if (baseUrl === undefined) throw new Error('the sandbox is not listening yet');
    return baseUrl;
  };
}
