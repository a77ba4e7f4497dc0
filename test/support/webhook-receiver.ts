import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { eventually } from './poll';

/** One request a receiver got: its headers and its body exactly as sent. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
  at: number;
}

/** How a receiver answers a request: a status (and headers), after a delay, or by dripping its answer, or never. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number; body?: string } | 'never' | { drip: number };

/**
 * A merchant's webhook receiver: a real HTTP server on a free loopback port that records every
 * request and answers as `answer` says (200 by default), for the delivery suites.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook, n: number) => Answer = () => ({ status: 200 });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => receiver.handle(request, response));
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Requests with this `webhook-id`. */
  of(eventId: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.id === eventId);
  }

  /** Waits until `accept` holds of what was received. */
  async until(accept: (received: ReceivedWebhook[]) => boolean, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    return eventually(() => Promise.resolve([...this.received]), accept, timeoutMs, 25);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const got: ReceivedWebhook = {
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
        headers: request.headers,
        raw,
        body: JSON.parse(raw),
        at: Date.now(),
      };
      this.received.push(got);
      const answer = this.answer(got, this.received.length);
      if (answer === 'never') return;
      if ('drip' in answer) {
        // The status line, a byte at a time: the answer never completes within the sender's timeout.
        const text = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';
        let i = 0;
        const next = () => {
          if (i >= text.length || request.socket.destroyed) return;
          request.socket.write(text[i++]);
          this.later(next, answer.drip);
        };
        next();
        return;
      }
      this.later(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        response.end(answer.body ?? `answered ${answer.status}`);
      }, answer.delayMs ?? 0);
    });
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}
