import { KeyedSerializer } from './keyed-serializer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerializer', () => {
  it('runs one key’s tasks one at a time, in order, and other keys alongside', async () => {
    const serializer = new KeyedSerializer();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running--;
      return name;
    };

    const results = await Promise.all([serializer.run('a', task('a1')), serializer.run('a', task('a2')), serializer.run('b', task('b1'))]);

    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(most).toBe(2);
    await tick();
    expect(serializer.size).toBe(0);
  });

  it('goes on after a failed task, and the failure reaches its caller only', async () => {
    const serializer = new KeyedSerializer();
    const failed = serializer.run('k', () => Promise.reject(new Error('boom')));
    const next = serializer.run('k', () => Promise.resolve('fine'));

    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('fine');
  });
});
