import type { Logger } from '@nestjs/common';
import { Client } from 'pg';

const RECONNECT_MS = 1_000;

/**
 * A dedicated connection LISTENing on `channel`, calling `notified` on each notification and
 * reconnecting after a second whenever the connection is lost. Notifications only make the
 * listener prompt: whoever uses one also polls, since a notification sent while the connection
 * was down is never seen.
 */
export class PgListener {
  private client?: Client;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly notified: () => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 2_000 });
    const retry = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners();
      // A dying connection may still emit 'error' (while ending, or a second time): unheard, that
      // would end the process.
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.start(), RECONNECT_MS).unref();
    };
    this.client = client;
    client.on('notification', () => this.notified());
    client.on('error', retry);
    client.on('end', retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      this.logger.warn(`LISTEN ${this.channel} unavailable, polling until it is back: ${(err as Error).message}`);
      retry();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }
}
