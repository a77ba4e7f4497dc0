/**
 * The core part: GET one business against the reference server (same statement, same JSON;
 * alternating rounds), the list's first page, create, and the API's memory after them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type autocannon from 'autocannon';
import { PoboBusinessesRepository } from '../src/modules/pobo-businesses/pobo-businesses.repository';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { Measurement, memoryField, rssMb, summarise } from './measure';
import { log } from './processes';
import { findOwnedQuery, statementSent } from './reference-server';
import { ROUNDS, WARMUP_S } from './settings';

export const CORE_TARGETS = {
  getOneRatio: 0.6,
  listP99Ms: 50,
  createP99Ms: 50,
  rssMb: 250,
};

export const runCorePart: BenchPart = async (d) => {
  const ids = d.businessIds;
  const [apiUrl, refUrl] = [d.servers.api.url, d.servers.reference.url];
  // Both servers must do the same work before their figures can be compared.
  await checkEquivalence(apiUrl, refUrl, d.apiKey, d.merchantId, ids[0]);

  const getOne = (): autocannon.Request[] => {
    let next = 0;
    return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${ids[next++ % ids.length]}` }) }];
  };
  let created = 0;
  const create: autocannon.Request[] = [
    {
      method: 'POST',
      path: POBO_USERS_PATH,
      headers: { ...d.servers.api.headers, 'content-type': 'application/json' },
      setupRequest: (request) => {
        created++;
        return {
          ...request,
          body: JSON.stringify({
            businessName: `Bench Create ${created}`,
            email: `create${created}@bench.example`,
            phoneNumber: '+2348012345678',
            country: 'NG',
          }),
        };
      },
    },
  ];
  const list: autocannon.Request[] = [{ method: 'GET', path: POBO_USERS_PATH }];

  // Warm both, then alternate reference / API for GET one.
  log('');
  for (const server of ['reference', 'api'] as const) await d.warm(`warm-up ${server} GET one`, server, getOne(), { durationS: WARMUP_S });
  const runs: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const server of ['reference', 'api'] as const) runs.push(await d.measure('get-one', server, round, getOne()));
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
  const refGet = core.find((s) => s.scenario === 'get-one' && s.server === 'reference')!;
  const apiGet = core.find((s) => s.scenario === 'get-one' && s.server === 'api')!;
  const listed = core.find((s) => s.scenario === 'list-first-page')!;
  const createSummary = core.find((s) => s.scenario === 'create')!;
  const pairedRatios = Array.from({ length: ROUNDS }, (_, i) => {
    const ref = runs.find((r) => r.scenario === 'get-one' && r.server === 'reference' && r.round === i + 1)!;
    const app = runs.find((r) => r.scenario === 'get-one' && r.server === 'api' && r.round === i + 1)!;
    return app.rps / ref.rps;
  });
  const ratio = apiGet.rps / refGet.rps;
  const cpuRatio = refGet.cpuUsPerRequest / apiGet.cpuUsPerRequest;
  return {
    targets: [
      {
        name: 'GET one business req/s vs reference',
        target: `≥ ${CORE_TARGETS.getOneRatio.toFixed(2)}×`,
        measured: `${ratio.toFixed(2)}× (rounds: ${pairedRatios.map((r) => r.toFixed(2)).join(', ')})`,
        pass: ratio >= CORE_TARGETS.getOneRatio,
      },
      {
        name: 'List first page p99',
        target: `< ${CORE_TARGETS.listP99Ms} ms`,
        measured: `${listed.p99Ms.toFixed(1)} ms`,
        pass: listed.p99Ms < CORE_TARGETS.listP99Ms,
      },
      {
        name: 'Create p99 (all answers 201)',
        target: `< ${CORE_TARGETS.createP99Ms} ms`,
        measured: `${createSummary.p99Ms.toFixed(1)} ms, ${createSummary.non2xx} non-2xx, ${createSummary.errors} errors`,
        pass: createSummary.p99Ms < CORE_TARGETS.createP99Ms && createSummary.non2xx === 0 && createSummary.errors === 0,
      },
      {
        name: 'API RSS after the run',
        target: `< ${CORE_TARGETS.rssMb} MB`,
        measured: `${rss.toFixed(0)} MB (peak ${peakRss.toFixed(0)} MB)`,
        pass: rss < CORE_TARGETS.rssMb,
      },
    ],
    results: { getOne: { rpsRatio: ratio, pairedRpsRatios: pairedRatios, cpuRatio }, memory: { rssMbAfterRun: rss, peakRssMb: peakRss } },
  };
};

/** Fails the run unless the reference runs the API's exact statement and answers the same JSON. */
async function checkEquivalence(apiUrl: string, refUrl: string, apiKey: string, merchantId: string, id: string): Promise<void> {
  // findOwned reads through the pool alone: the repository's DataSource is not needed here.
  const sent = await statementSent((pool) => new PoboBusinessesRepository(pool, undefined as never).findOwned(merchantId, id));
  if (!isDeepStrictEqual(sent, findOwnedQuery(merchantId, id))) {
    throw new Error('the reference server no longer sends the statement PoboBusinessesRepository.findOwned sends');
  }

  const [fromApi, fromRef] = await Promise.all([
    getJson(`${apiUrl}${POBO_USERS_PATH}/${id}`, { 'x-api-key': apiKey }),
    getJson(`${refUrl}${POBO_USERS_PATH}/${id}`, {}),
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
