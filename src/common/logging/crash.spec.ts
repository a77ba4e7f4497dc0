import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** A real process that installs the handler, then fails in a way nothing handles. */
function crash(how: string): { status: number | null; lines: string[] } {
  const script = `require(${JSON.stringify(join(__dirname, 'crash.ts'))}).exitOnCrash('worker'); ${how}`;
  const result = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '../../..') });
  return { status: result.status, lines: result.stdout.split('\n').filter(Boolean) };
}

describe('exitOnCrash', () => {
  it.each([
    ['an uncaught exception', "setTimeout(() => { throw new Error('boom at mk_test_2cWoJyRFKdLWnhPu75JZtksuNxwpfok7QDKbJsC'); }, 0);", 'uncaught exception'],
    ['an unhandled rejection', "Promise.reject(new TypeError('nobody awaited me'));", 'unhandled rejection'],
    ["an unhandled 'error' event", "new (require('node:events').EventEmitter)().emit('error', new Error('no listener'));", 'uncaught exception'],
  ])('logs %s as one JSON line at fatal level with its cause, masking keys, and exits 1', (_name, how, kind) => {
    const { status, lines } = crash(how);
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { level: number; role: string; msg: string; crash: { kind: string; stack: string } };
    expect(line).toMatchObject({ level: 60, role: 'worker', crash: { kind } });
    expect(line.msg).toMatch(new RegExp(`^worker crashed \\(${kind}\\): \\w*Error: `));
    expect(line.crash.stack).toContain('Error');
    expect(lines[0]).not.toContain('2cWoJyRFKdLWnhPu75JZtksuNxwpfok7QDKbJsC');
  });
});
