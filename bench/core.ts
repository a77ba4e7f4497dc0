/**
 * The core part: GET one business against the plain and the contract references (same statement,
 * same JSON; alternating rounds), the list's first page, create, and the API's memory after them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type autocannon from 'autocannon';
import { PoboBusinessesRepository } from '../src/modules/pobo-businesses/pobo-businesses.repository';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart, Server } from './deployment';
import { Measurement, memoryField, numberedPosts, READ_SERVERS, ReadServer, rssMb, summarise } from './measure';
import { log } from './processes';
import { findOwnedQuery, statementSent } from './reference-server';
import { ROUNDS, WARMUP_S } from './settings';

export const CORE_TARGETS = {
  /** Reference CPU µs/request ÷ the API's, for GET one business: against the plain floor, and against the contract's. */
  getOneVsPlain: 0.65,
  getOneVsContract: 0.95,
  /**
   * 250 MB for the heap and the code, plus the young generation `npm run start:api` asks for:
   * two 64 MB semi-spaces, which a busy API fills (see src/dev.ts).
   */
  rssMb: 380,
};

export const runCorePart: BenchPart = async (d) => {
  const ids = d.businessIds;
  const apiUrl = d.servers.api.url;
  // Both servers must do the same work before their figures can be compared.
  for (const reference of [d.servers.reference, d.servers.contract]) await checkEquivalence(apiUrl, reference, d.apiKey, d.merchantId, ids[0]);

  const getOne = (): autocannon.Request[] => {
    let next = 0;
    return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${ids[next++ % ids.length]}` }) }];
  };
  const create = createBusinesses(d.apiKey, 'create');
  const list: autocannon.Request[] = [{ method: 'GET', path: POBO_USERS_PATH }];

  // Warm all three, then alternate them for GET one.
  log('');
  for (const server of READ_SERVERS) await d.warm(`warm-up ${server} GET one`, server, getOne(), { durationS: WARMUP_S });
  const runs: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const server of READ_SERVERS) runs.push(await d.measure('get-one', server, round, getOne()));
  }
  await d.warm('warm-up api list first page', 'api', list, { durationS: WARMUP_S });
  runs.push(await d.measure('list-first-page', 'api', 1, list));
  const warmCreate = await d.warm('warm-up api create', 'api', create, { durationS: WARMUP_S });
  if (warmCreate.non2xx > 0) log(`  warning: ${warmCreate.non2xx} non-2xx answers during the create warm-up`);
  runs.push(await d.measure('create', 'api', 1, create));

  // Memory after the run.
  await sleep(1_000);
  const apiPid = d.servers.api.pid;
  const rss = rssMb(apiPid);
  const peakRss = memoryField(apiPid, 'VmHWM') / 1024;

  const core = summarise(runs);
  const of = (server: ReadServer) => core.find((s) => s.scenario === 'get-one' && s.server === server)!;
  const listed = core.find((s) => s.scenario === 'list-first-page')!;
  const createSummary = core.find((s) => s.scenario === 'create')!;
  const vsPlain = of('reference').cpuUsPerRequest / of('api').cpuUsPerRequest;
  const vsContract = of('contract').cpuUsPerRequest / of('api').cpuUsPerRequest;
  const cpuOf = (server: ReadServer) => `${of(server).cpuUsPerRequest.toFixed(0)} µs`;
  return {
    targets: [
      {
        name: 'GET one business: plain reference CPU ÷ API CPU',
        target: `≥ ${CORE_TARGETS.getOneVsPlain.toFixed(2)}×`,
        measured: `${vsPlain.toFixed(2)}× (${cpuOf('reference')} vs ${cpuOf('api')} per request)`,
        pass: vsPlain >= CORE_TARGETS.getOneVsPlain,
      },
      {
        name: 'GET one business: contract reference CPU ÷ API CPU',
        target: `≥ ${CORE_TARGETS.getOneVsContract.toFixed(2)}×`,
        measured: `${vsContract.toFixed(2)}× (${cpuOf('contract')} vs ${cpuOf('api')} per request)`,
        pass: vsContract >= CORE_TARGETS.getOneVsContract,
      },
      {
        name: 'List first page',
        target: 'reported',
        measured: `${listed.cpuUsPerRequest.toFixed(0)} µs CPU/req, p99 ${listed.p99Ms.toFixed(1)} ms at ${listed.rps.toFixed(0)} req/s`,
        pass: null,
      },
      {
        name: 'Create business: every answer 201',
        target: 'all 201',
        measured: `${createSummary.non2xx} non-2xx, ${createSummary.errors} errors; ${createSummary.cpuUsPerRequest.toFixed(0)} µs CPU/req, p99 ${createSummary.p99Ms.toFixed(1)} ms`,
        pass: createSummary.non2xx === 0 && createSummary.errors === 0,
      },
      {
        name: 'API RSS after the run',
        target: `< ${CORE_TARGETS.rssMb} MB`,
        measured: `${rss.toFixed(0)} MB (peak ${peakRss.toFixed(0)} MB)`,
        pass: rss < CORE_TARGETS.rssMb,
      },
    ],
    results: {
      getOne: {
        cpuVsPlain: vsPlain,
        cpuVsContract: vsContract,
        cpuUsPerRequest: Object.fromEntries(READ_SERVERS.map((server) => [server, of(server).cpuUsPerRequest])),
      },
      memory: { rssMbAfterRun: rss, peakRssMb: peakRss },
    },
  };
};

/** Create business requests for autocannon, each with a name and an e-mail of its own; `tag` keeps every run's apart. */
export function createBusinesses(apiKey: string, tag: string): autocannon.Request[] {
  return numberedPosts(apiKey, POBO_USERS_PATH, (n) => ({
    body: { businessName: `Bench ${tag} ${n}`, email: `${tag}-${n}@bench.example`, phoneNumber: '+2348012345678', country: 'NG' },
  }));
}

/** Fails the run unless the reference runs the API's exact statement and answers the same JSON. */
async function checkEquivalence(apiUrl: string, reference: Server, apiKey: string, merchantId: string, id: string): Promise<void> {
  // findOwned reads through the pool alone: the repository's DataSource is not needed here.
  const sent = await statementSent((pool) => new PoboBusinessesRepository(pool, undefined as never).findOwned(merchantId, id));
  if (!isDeepStrictEqual(sent, findOwnedQuery(merchantId, id))) {
    throw new Error('the reference server no longer sends the statement PoboBusinessesRepository.findOwned sends');
  }

  const [fromApi, fromRef] = await Promise.all([
    getJson(`${apiUrl}${POBO_USERS_PATH}/${id}`, { 'x-api-key': apiKey }),
    getJson(`${reference.url}${POBO_USERS_PATH}/${id}`, reference.headers),
  ]);
  if (fromApi.status !== 200 || fromRef.status !== 200) {
    throw new Error(`GET one answered ${fromApi.status} (API) and ${fromRef.status} (reference): ${JSON.stringify(fromApi.body)}`);
  }
  if (!isDeepStrictEqual(fromApi.body, fromRef.body)) {
    throw new Error(`the API and the reference answer different JSON:\n${JSON.stringify(fromApi.body)}\n${JSON.stringify(fromRef.body)}`);
  }
  const list = await getJson(`${apiUrl}${POBO_USERS_PATH}`, { 'x-api-key': apiKey });
  const items = (list.body as { response?: unknown[] }).response;
  if (list.status !== 200 || !Array.isArray(items) || items.length === 0) throw new Error(`list answered ${list.status}`);
  log(`checked: same SQL statement and identical JSON for GET one (${fromApi.bytes} bytes); list first page has ${items.length} items (${list.bytes} bytes)`);
}

async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown; bytes: number }> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
}
