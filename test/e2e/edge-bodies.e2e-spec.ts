import type { Client } from 'pg';
import { expectErrorBody } from '../support/contract';
import { acceptAgreementDirectly, documentOfSize, kybApplication } from '../support/kyb-fixtures';
import { asResult, RawConnection, requestHead } from '../support/raw-http';
import { createBusiness, http, TestApp } from '../support/test-app';
import { startStack, Stack } from '../support/stack';

const MiB = 1024 * 1024;
const IDLE_TIMEOUT_MS = 1_000;

/**
 * No work before authentication, and bounded bodies: found by a session that attacked a running
 * instance. Every test runs against the real server on a real socket.
 */
describe('The request edge: authentication before the body, and bodies that end', () => {
  let stack: Stack;
  let t: TestApp;
  let pg: Client;
  let apiKey: string;
  let otherKey: string;
  let port: number;

  beforeAll(async () => {
    stack = await startStack({
      name: 'edge-bodies',
      env: { MAX_CONCURRENT_KYB_UPLOADS: '2', BODY_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS), BODY_MIN_BYTES_PER_SECOND: '10240' },
      merchants: ['Edge merchant', 'Other merchant'],
    });
    ({ t, pg } = stack);
    [apiKey, otherKey] = stack.merchants.map((merchant) => merchant.apiKey);
    port = Number(new URL(t.baseUrl).port);
  });

  afterAll(async () => {
    await stack?.close();
  });

  async function submittableBusiness(key = apiKey): Promise<string> {
    const business = await createBusiness(t, key);
    await acceptAgreementDirectly(pg, business.poboUserId);
    return business.poboUserId;
  }

  const onboardingPath = (id: string) => `/api/merchant/pobo/users/${id}/onboarding`;

  /** A merchant's real 2 MB submission, as fetch sends it. */
  async function submitTwoMegabytes(businessId: string) {
    const application = kybApplication('RC-EDGE-1');
    (application.company_files as Array<{ files: string[] }>)[0].files = [documentOfSize(2 * MiB)];
    return http(t.baseUrl, 'POST', onboardingPath(businessId), { apiKey, body: application });
  }

  it('answers keyless uploads 401 from their headers alone, so they hold no slot while a merchant uploads', async () => {
    const businessId = await submittableBusiness();
    // The attack that held both slots for 130 s: a large declared body, a few bytes, then a trickle.
    const attackers = [0, 1].map(() => new RawConnection(port));
    for (const attacker of attackers) {
      await attacker.write(
        requestHead('POST', onboardingPath(businessId), [
          ['Content-Type', 'application/json'],
          ['Content-Length', String(5 * MiB)],
        ]),
      );
      await attacker.write('{"company":');
    }
    const answers = await Promise.all(attackers.map((a) => a.answer));
    for (const answer of answers) {
      expectErrorBody(asResult(answer), 401, 'unauthorized');
      expect(answer.headers.connection).toBe('close');
      expect(answer.elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS);
    }
    await Promise.all(attackers.map((a) => a.closed));

    const merchant = await submitTwoMegabytes(businessId);
    expect(merchant.status).toBe(202);
  });

  it('reads none of eight keyless chunked uploads: each is refused after its first chunk while a merchant is served', async () => {
    const businessId = await submittableBusiness();
    const attackers = Array.from({ length: 8 }, () => new RawConnection(port));
    const firstChunk = `{"company_files":[{"file_type":"organization_chart","files":["${'A'.repeat(64 * 1024)}`;
    for (const attacker of attackers) {
      await attacker.write(
        requestHead('POST', onboardingPath(businessId), [
          ['Content-Type', 'application/json'],
          ['Transfer-Encoding', 'chunked'],
        ]),
      );
      await attacker.write(`${firstChunk.length.toString(16)}\r\n${firstChunk}\r\n`);
    }
    const merchant = submitTwoMegabytes(businessId);
    for (const answer of await Promise.all(attackers.map((a) => a.answer))) expectErrorBody(asResult(answer), 401, 'unauthorized');
    await Promise.all(attackers.map((a) => a.closed));
    // The rest of a 49 MB body has nowhere to go: the server has closed every attacker.
    for (const attacker of attackers) expect(await attacker.write(`10\r\n${'A'.repeat(16)}\r\n`)).toBe(false);
    expect((await merchant).status).toBe(202);
  });

  it("refuses an upload to another merchant's business with 404 before reading it", async () => {
    const othersBusiness = await submittableBusiness(otherKey);
    const connection = new RawConnection(port);
    await connection.write(
      requestHead('POST', onboardingPath(othersBusiness), [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(5 * MiB)],
        ['x-api-key', apiKey],
      ]),
    );
    await connection.write('{');
    const answer = await connection.answer;
    expectErrorBody(asResult(answer), 404, 'resource_not_found');
    await connection.closed;
  });

  it('counts chunked uploads against the slots, and cuts a stalled upload with 408, freeing its slot', async () => {
    const stalledFor = await submittableBusiness();
    const held = [0, 1].map(() => new RawConnection(port));
    for (const connection of held) {
      await connection.write(
        requestHead('POST', onboardingPath(stalledFor), [
          ['Content-Type', 'application/json'],
          ['Transfer-Encoding', 'chunked'],
          ['x-api-key', apiKey],
        ]),
      );
      await connection.write('2\r\n{"\r\n');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));

    // Both slots are taken by chunked bodies: a third large upload is shed.
    const third = new RawConnection(port);
    await third.write(
      requestHead('POST', onboardingPath(stalledFor), [
        ['Content-Type', 'application/json'],
        ['Transfer-Encoding', 'chunked'],
        ['x-api-key', apiKey],
      ]),
    );
    const shed = await third.answer;
    expectErrorBody(asResult(shed), 503, 'service_unavailable');
    expect(Number(shed.headers['retry-after'])).toBeGreaterThan(0);

    // The stalled uploads are cut after the idle timeout, each with the contract's 408.
    for (const answer of await Promise.all(held.map((c) => c.answer))) {
      expectErrorBody(asResult(answer), 408, 'request_timeout');
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 50);
      expect(answer.elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS + 1_500);
    }
    await Promise.all(held.map((c) => c.closed));

    // Their slots are free again.
    const merchant = await submitTwoMegabytes(await submittableBusiness());
    expect(merchant.status).toBe(202);
    const { rows } = await pg.query(`SELECT kyb_status FROM pobo_businesses WHERE id = $1`, [stalledFor]);
    expect(rows[0].kyb_status).toBe('not_started');
  });

  it('cuts a stalled body on any route: Content-Length 100 and a body of "{"', async () => {
    const connection = new RawConnection(port);
    await connection.write(
      requestHead('POST', '/api/merchant/pobo/users', [
        ['Content-Type', 'application/json'],
        ['Content-Length', '100'],
        ['x-api-key', apiKey],
      ]),
    );
    await connection.write('{');
    const answer = await connection.answer;
    expectErrorBody(asResult(answer), 408, 'request_timeout');
    expect(answer.elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS + 1_500);
    await connection.closed;
  });

  it('cuts a body that trickles in below the minimum rate, and writes nothing', async () => {
    const before = await pg.query(`SELECT count(*)::int AS n FROM pobo_businesses`);
    const body = JSON.stringify({ businessName: 'Trickle Ltd', email: 'trickle@example.com', phoneNumber: '+2348012345678', country: 'NG' });
    const connection = new RawConnection(port);
    await connection.write(
      requestHead('POST', '/api/merchant/pobo/users', [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(body.length)],
        ['x-api-key', apiKey],
      ]),
    );
    // One byte every 100 ms never idles for a second, but is far below 10 KiB/s.
    void connection.trickle(body, 1, 100);
    const answer = await connection.answer;
    expectErrorBody(asResult(answer), 408, 'request_timeout');
    expect(answer.elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS + 1_500);
    await connection.closed;
    const after = await pg.query(`SELECT count(*)::int AS n FROM pobo_businesses`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('lets a body that arrives steadily finish, even when it takes longer than the idle timeout', async () => {
    const body = JSON.stringify({ businessName: 'Steady Ltd', email: 'steady@example.com', phoneNumber: '+2348012345678', country: 'NG' });
    const padded = body.slice(0, -1) + ' '.repeat(40_000) + '}';
    const connection = new RawConnection(port);
    await connection.write(
      requestHead('POST', '/api/merchant/pobo/users', [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(padded.length)],
        ['x-api-key', apiKey],
      ]),
    );
    // 2 KB every 100 ms: 20 KB/s for about two seconds.
    void connection.trickle(padded, 2_000, 100);
    const answer = await connection.answer;
    expect(answer.status).toBe(201);
    connection.destroy();
  });

  it('bounds the application apart from its documents: a long plain string is 413', async () => {
    const businessId = await submittableBusiness();
    const application = kybApplication('RC-EDGE-2');
    (application.company as Record<string, unknown>).description = 'x'.repeat(300 * 1024);
    const result = await http(t.baseUrl, 'POST', onboardingPath(businessId), { apiKey, body: application });
    expectErrorBody(result, 413, 'payload_too_large');
    const { rows } = await pg.query(`SELECT kyb_status FROM pobo_businesses WHERE id = $1`, [businessId]);
    expect(rows[0].kyb_status).toBe('not_started');
  });

  it('refuses a compressed body with 415 instead of misreading it', async () => {
    const result = await http(t.baseUrl, 'POST', '/api/merchant/pobo/users', {
      apiKey,
      headers: { 'content-encoding': 'gzip' },
      body: '\u001f\u008b\u0008\u0000',
    });
    expectErrorBody(result, 415, 'unsupported_media_type');
  });
});
