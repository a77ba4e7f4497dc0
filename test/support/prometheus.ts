import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';
import { eventually } from './poll';

/** The alert rules the repository ships. */
export const SHIPPED_ALERT_RULES = resolve(__dirname, '../../ops/prometheus/alerts.yml');

export interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

export interface RunningPrometheus {
  url: string;
  /** The alerts pending or firing now. */
  alerts(): Promise<Alert[]>;
  close(): Promise<void>;
}

/**
 * Debian's Prometheus server, scraping the operator ports `targets` (job name to `host:port`)
 * every second and evaluating the shipped alert rules every second, with its data in a
 * directory of its own that `close` removes.
 */
export async function startPrometheus(targets: Record<string, string>): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'prometheus-'));
  const config = join(dir, 'prometheus.yml');
  await writeFile(
    config,
    JSON.stringify({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [SHIPPED_ALERT_RULES],
      scrape_configs: Object.entries(targets).map(([job, target]) => ({ job_name: job, static_configs: [{ targets: [target] }] })),
    }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    'prometheus',
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.status,
      (status) => status === 200 || child.exitCode !== null,
      20_000,
      100,
    );
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${errors}`);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    async alerts() {
      const body = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } };
      return body.data.alerts;
    },
    close,
  };
}
