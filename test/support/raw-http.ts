import { connect, Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from opening the connection to the end of the answer. */
  elapsedMs: number;
}

/**
 * An HTTP/1.1 request written byte by byte on a socket: for what fetch will not send (a body that
 * trickles or stalls, duplicate headers, malformed framing). `answer` resolves with the first
 * response, parsed; `closed` when the server has closed the connection.
 */
export class RawConnection {
  readonly socket: Socket;
  readonly answer: Promise<RawResponse>;
  readonly closed: Promise<void>;
  private received = '';
  private readonly openedAt = Date.now();

  /** `headOnly`: the answer to a HEAD request, whose Content-Length announces no body. */
  constructor(port: number, options: { headOnly?: boolean } = {}) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
    this.answer = new Promise((resolve, reject) => {
      const tryParse = () => {
        const parsed = parseResponse(this.received, options.headOnly ?? false);
        if (parsed) {
          this.socket.off('data', onData);
          resolve({ ...parsed, elapsedMs: Date.now() - this.openedAt });
        }
      };
      const onData = (chunk: Buffer) => {
        this.received += chunk.toString('latin1');
        tryParse();
      };
      this.socket.on('data', onData);
      this.socket.once('close', () => {
        tryParse();
        reject(new Error(`connection closed without a complete answer: ${JSON.stringify(this.received.slice(0, 200))}`));
      });
    });
    this.answer.catch(() => {});
  }

  /** Writes; resolves false once the server has closed the connection. */
  write(data: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || !this.socket.writable) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(data, (err) => resolve(!err)));
  }

  /** Writes `data` a piece at a time until done or the server stops listening. */
  async trickle(data: string, pieceBytes: number, everyMs: number): Promise<void> {
    for (let i = 0; i < data.length; i += pieceBytes) {
      if (!(await this.write(data.slice(i, i + pieceBytes)))) return;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A raw answer in the shape `expectErrorBody` checks. */
export function asResult(answer: RawResponse) {
  return { status: answer.status, headers: new Headers(answer.headers), body: JSON.parse(answer.body) };
}

export function requestHead(method: string, path: string, headers: Array<[string, string]>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}

function parseResponse(text: string, headOnly: boolean): Omit<RawResponse, 'elapsedMs'> | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  if (headOnly) return { status: Number(statusLine.split(' ')[1]), headers, body: '' };
  if (headers['transfer-encoding'] === 'chunked') {
    let body = '';
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(rest.slice(at, lineEnd), 16);
      if (size === 0) return { status: Number(statusLine.split(' ')[1]), headers, body };
      if (rest.length < lineEnd + 2 + size) return undefined;
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  if (Buffer.byteLength(rest, 'latin1') < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(rest.slice(0, length), 'latin1').toString('utf8') };
}
