import { DependencyOutages, logRequestFailure } from './dependency-outages';
import { toErrorResponse } from './error-response';

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: unknown) => void lines.push({ level, message: String(message) });
  return { lines, logger: { warn: at('warn'), log: at('info'), debug: at('debug'), error: at('error') } };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
const redisOffline = new Error("Stream isn't writeable and enableOfflineQueue options is false");

describe('DependencyOutages', () => {
  afterEach(() => jest.useRealTimers());

  it('warns once per outage, counts the rest at debug, and warns again after a reconnection', () => {
    const { lines, logger } = recordingLogger();
    const outages = new DependencyOutages(logger);
    for (let i = 0; i < 50; i++) outages.failed({ dependency: 'database', reason: 'connect ECONNREFUSED' });
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      { level: 'warn', message: expect.stringMatching(/^database unavailable: connect ECONNREFUSED;/) },
    ]);
    expect(lines.filter((l) => l.level === 'debug')).toHaveLength(49);

    outages.recovered('database');
    outages.recovered('database');
    expect(lines.filter((l) => l.level === 'info')).toEqual([
      { level: 'info', message: expect.stringMatching(/^database reachable again after \d+\.\d s; 50 requests answered 503/) },
    ]);

    outages.failed({ dependency: 'database', reason: 'connect ECONNREFUSED' });
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('keeps PostgreSQL and Redis outages apart', () => {
    const { lines, logger } = recordingLogger();
    const outages = new DependencyOutages(logger);
    outages.failed({ dependency: 'database', reason: 'a' });
    outages.failed({ dependency: 'redis', reason: 'b' });
    outages.failed({ dependency: 'redis', reason: 'b' });
    outages.recovered('redis');
    outages.failed({ dependency: 'database', reason: 'a' });
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message.split(':')[0])).toEqual(['database unavailable', 'redis unavailable']);
    expect(lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([expect.stringMatching(/^redis reachable again .*; 2 requests/)]);
  });

  it('ends an outage after a quiet stretch without failures, when no reconnection is seen', () => {
    jest.useFakeTimers();
    const { lines, logger } = recordingLogger();
    const outages = new DependencyOutages(logger, 1_000);
    outages.failed({ dependency: 'database', reason: 'timeout exceeded when trying to connect' });
    jest.advanceTimersByTime(900);
    outages.failed({ dependency: 'database', reason: 'timeout exceeded when trying to connect' });
    // Quiet since the second failure only.
    jest.advanceTimersByTime(900);
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(0);
    jest.advanceTimersByTime(200);
    expect(lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      expect.stringMatching(/^no database failure for 1\.0 s; 2 requests answered 503/),
    ]);
    outages.failed({ dependency: 'database', reason: 'timeout exceeded when trying to connect' });
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });
});

describe('logRequestFailure', () => {
  it('logs a bug with its stack, an unreachable dependency through the outage log, a client error not at all', () => {
    const { lines, logger } = recordingLogger();
    const outages = new DependencyOutages(logger);
    logRequestFailure(logger, refused, toErrorResponse(refused, 'r'), outages);
    logRequestFailure(logger, refused, toErrorResponse(refused, 'r'), outages);
    logRequestFailure(logger, redisOffline, toErrorResponse(redisOffline, 'r'), outages);
    const bug = new TypeError('x is undefined');
    logRequestFailure(logger, bug, toErrorResponse(bug, 'r'), outages);
    expect(lines.filter((l) => l.level !== 'debug')).toEqual([
      { level: 'warn', message: expect.stringMatching(/^database unavailable: connect ECONNREFUSED;/) },
      { level: 'warn', message: expect.stringMatching(/^redis unavailable: Stream isn't writeable and enableOfflineQueue options is false;/) },
      { level: 'error', message: expect.stringMatching(/^TypeError: x is undefined\n\s+at /) },
    ]);
    // Neither the address nor a stack reaches the warning.
    expect(lines[0].message).not.toMatch(/127\.0\.0\.1|\n/);
  });
});
