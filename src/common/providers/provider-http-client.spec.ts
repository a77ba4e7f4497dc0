import { createHash } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { FastifyInstance } from 'fastify';
import { createVerificationProviderServer } from '../../../sandbox/verification-provider/verification-provider.server';
import { ProviderError, ProviderHttpClient } from './provider-http-client';

const API_KEY = 'spec-key';

/** The client against the sandbox provider over a real socket: timeouts, retries and the breaker. */
describe('ProviderHttpClient', () => {
  let sandbox: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    sandbox = createVerificationProviderServer({ apiKey: API_KEY, reviewDelayMs: 0 });
    await sandbox.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(sandbox.server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    sandbox.server.closeAllConnections();
    await sandbox.close();
  });

  afterEach(async () => {
    await sandbox.inject({ method: 'POST', url: '/_sandbox/reset' });
  });

  const faults = (body: object) => sandbox.inject({ method: 'POST', url: '/_sandbox/faults', payload: body });
  const client = (apiKey = API_KEY) => new ProviderHttpClient({ name: 'sandbox', baseUrl, apiKey, backoffMs: 10, resetTimeoutMs: 60_000 });
  const submissions = async () => (await sandbox.inject({ method: 'GET', url: '/_sandbox/applications' })).json<{ submissions: number }>().submissions;
  const submit = (c: ProviderHttpClient, retries: number, timeoutMs = 2_000) =>
    c.request({
      method: 'POST',
      path: '/v1/business-applications',
      headers: { 'idempotency-key': 'ref-1' },
      body: { reference: 'ref-1', company: { registration_number: 'RC-1' }, associated_persons: [], documents: [] },
      timeoutMs,
      retries,
    });

  it('retries 5xx answers with backoff and succeeds', async () => {
    await faults({ failNext: 2, failStatus: 503 });
    const c = client();
    const response = await submit(c, 2);
    expect(response.status).toBe(201);
    expect(await submissions()).toBe(1);
  });

  it('gives up after its retries with a retryable error', async () => {
    await faults({ failNext: 3, failStatus: 502 });
    const c = client();
    await expect(submit(c, 1)).rejects.toMatchObject({ retryable: true, status: 502 });
  });

  it('never retries a 4xx, and reports it as not retryable', async () => {
    const c = client('wrong-key');
    const error = await submit(c, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect(await submissions()).toBe(0);
  });

  it('times out a slow provider per attempt', async () => {
    await faults({ latencyMs: 1_000 });
    const c = client();
    const started = Date.now();
    await expect(submit(c, 0, 150)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('timed out') });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('opens the circuit after repeated failures and then fails fast without calling the provider', async () => {
    await faults({ down: true });
    const c = client();
    for (let i = 0; i < 6; i++) await submit(c, 0).catch(() => undefined);
    await faults({ down: false });
    const started = Date.now();
    await expect(submit(c, 3)).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('circuit open') });
    expect(Date.now() - started).toBeLessThan(100);
    expect(await submissions()).toBe(0);
  });
});

/** Streamed PUT bodies against a bare upload server that records exactly what it received. */
describe('ProviderHttpClient streamed uploads', () => {
  interface Upload {
    headers: IncomingHttpHeaders;
    bytes: Buffer;
    sha256: string;
  }

  const CHUNK = 128 * 1024;
  let server: Server;
  let baseUrl: string;
  let uploads: Upload[];
  let requests: number;
  /** Bytes of the request being received so far. */
  let receiving: number;
  let failFirst: number;
  let refuseWith: number | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      // Answered before the body is read, as a provider refusing the credentials would; the
      // connection is dropped rather than drained, so the rest of the body is never pulled.
      if (refuseWith !== undefined) {
        res.shouldKeepAlive = false;
        return answer(refuseWith, { error: 'refused' });
      }
      const chunks: Buffer[] = [];
      const hash = createHash('sha256');
      receiving = 0;
      req.on('data', (chunk: Buffer) => {
        receiving += chunk.length;
        chunks.push(chunk);
        hash.update(chunk);
      });
      req.on('error', () => undefined);
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        uploads.push({ headers: req.headers, bytes, sha256: hash.digest('hex') });
        if (failFirst > 0) {
          failFirst--;
          return answer(503, { error: 'unavailable' });
        }
        answer(200, { received: bytes.length });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    uploads = [];
    requests = 0;
    receiving = 0;
    failFirst = 0;
    refuseWith = undefined;
  });

  const client = () => new ProviderHttpClient({ name: 'uploads', baseUrl, apiKey: API_KEY, backoffMs: 10, resetTimeoutMs: 60_000 });
  /** Chunk `i` of a document: distinct bytes for each chunk and position, the same on every call. */
  const chunkAt = (i: number) => Buffer.alloc(CHUNK).map((_, j) => (i * 31 + j * 7) & 0xff);
  const sha256Of = (count: number) => {
    const hash = createHash('sha256');
    for (let i = 0; i < count; i++) hash.update(chunkAt(i));
    return hash.digest('hex');
  };
  /** Each chunk comes after a round trip, as from a database cursor. */
  const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
  const put = (c: ProviderHttpClient, stream: () => AsyncIterable<Uint8Array>, extra: { retries?: number; contentLength?: number } = {}) =>
    c.request({
      method: 'PUT',
      path: '/v1/documents/doc-1',
      stream,
      contentType: 'application/pdf',
      timeoutMs: 10_000,
      retries: extra.retries ?? 2,
      contentLength: extra.contentLength,
    });

  it('re-creates a streamed body for each attempt, so a retry sends it whole', async () => {
    failFirst = 1;
    let opened = 0;
    const stream = async function* () {
      opened++;
      for (let i = 0; i < 8; i++) {
        await roundTrip();
        yield chunkAt(i);
      }
    };
    const response = await put(client(), stream, { contentLength: 8 * CHUNK });
    expect(response).toEqual({ status: 200, body: { received: 8 * CHUNK } });
    expect(opened).toBe(2);
    expect(uploads).toHaveLength(2);
    for (const upload of uploads) {
      expect(upload.bytes.length).toBe(8 * CHUNK);
      expect(upload.sha256).toBe(sha256Of(8));
      expect(upload.headers).toMatchObject({ 'content-length': String(8 * CHUNK), 'content-type': 'application/pdf' });
    }
    expect(Buffer.concat(Array.from({ length: 8 }, (_, i) => chunkAt(i))).equals(uploads[1].bytes)).toBe(true);
  });

  it('streams a body as it is read instead of buffering it whole', async () => {
    let yielded = 0;
    let heldBack = false;
    const stream = async function* () {
      for (let i = 0; i < 64; i++) {
        await roundTrip();
        yield chunkAt(i);
        yielded++;
        if (i === 8) {
          // Had the client gathered the body before sending, the provider would see nothing yet.
          const deadline = Date.now() + 5_000;
          while (receiving === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
          heldBack = receiving === 0;
        }
      }
    };
    const response = await put(client(), stream, { retries: 0 });
    expect(heldBack).toBe(false);
    expect(yielded).toBe(64);
    expect(response.body).toEqual({ received: 64 * CHUNK });
    expect(uploads).toHaveLength(1);
    expect(uploads[0].headers['transfer-encoding']).toBe('chunked');
    expect(uploads[0].bytes.length).toBe(64 * CHUNK);
    expect(uploads[0].sha256).toBe(sha256Of(64));
  });

  it('never retries a 4xx to a streamed upload, and closes the body the provider left unread', async () => {
    refuseWith = 403;
    let opened = 0;
    let closed = false;
    let sentWhole = false;
    const chunk = chunkAt(0);
    // Far more than the connection absorbs before the 403 drops it.
    const stream = async function* () {
      opened++;
      try {
        for (let i = 0; i < 1024; i++) {
          await roundTrip();
          yield chunk;
        }
        sentWhole = true;
      } finally {
        closed = true;
      }
    };
    const error = await put(client(), stream, { retries: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, status: 403 });
    expect(opened).toBe(1);
    expect(requests).toBe(1);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(closed).toBe(true);
    expect(sentWhole).toBe(false);
  });

  it('neither retries nor blames the provider for a body that does not match its contentLength', async () => {
    let opened = 0;
    const stream = async function* () {
      opened++;
      for (let i = 0; i < 2; i++) {
        await roundTrip();
        yield chunkAt(i);
      }
    };
    await expect(put(client(), stream, { contentLength: 3 * CHUNK })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('not the') });
    expect(opened).toBe(1);
  });

  it('rethrows a failure of the stream itself as is, without retrying', async () => {
    let opened = 0;
    const failure = new Error('document row vanished');
    const stream = async function* () {
      opened++;
      await roundTrip();
      yield chunkAt(0);
      throw failure;
    };
    await expect(put(client(), stream)).rejects.toBe(failure);
    expect(opened).toBe(1);
  });
});
