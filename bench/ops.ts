/**
 * The ops part: what counting costs. GET one business and create payment intent against the API
 * as production runs it (metrics on; tracing off, as with `OTEL_EXPORTER_OTLP_ENDPOINT` unset) and
 * against the same API with `OPS_METRICS=off`, in alternating rounds: CPU per request, on / off.
 */
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { POBO_USERS_PATH } from '../src/modules/pobo-businesses/pobo-businesses.routes';
import type { BenchPart } from './deployment';
import { createPaymentIntents } from './money';
import { Measurement } from './measure';
import { log } from './processes';
import { ROUNDS, WARMUP_S } from './settings';

export const OPS_TARGETS = {
  /** CPU per request with metrics on over the same with them off. */
  cpuRatio: 1.05,
};

export type OpsScenario = 'ops-get-one' | 'ops-pi-create';

const SERVERS = ['api', 'api-unmeasured'] as const;

export const runOpsPart: BenchPart = async (d) => {
  const ids = d.businessIds;
  const tag = randomBytes(4).toString('hex');
  const getOne = (): autocannon.Request[] => {
    let next = 0;
    return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `${POBO_USERS_PATH}/${ids[next++ % ids.length]}` }) }];
  };
  const createIntents = (phase: string) => createPaymentIntents(d.apiKey, `${tag}-ops`, phase);

  log('');
  for (const server of SERVERS) {
    await d.warm(`warm-up ${server} GET one (ops)`, server, getOne(), { durationS: WARMUP_S });
    await d.warm(`warm-up ${server} create payment intent (ops)`, server, createIntents(`warm-${server}`), { durationS: WARMUP_S });
  }
  const runs: Measurement[] = [];
  // Alternating, and in the other order each round (ABBA), so that both see the same machine and
  // neither always runs after the other's garbage.
  for (let round = 1; round <= ROUNDS; round++) {
    const order: readonly (typeof SERVERS)[number][] = round % 2 === 1 ? SERVERS : [...SERVERS].reverse();
    for (const server of order) runs.push(await d.measure('ops-get-one', server, round, getOne()));
    for (const server of order) runs.push(await d.measure('ops-pi-create', server, round, createIntents(`r${round}-${server}`)));
  }

  const cpu = (scenario: OpsScenario, server: (typeof SERVERS)[number]) => {
    const mine = runs.filter((run) => run.scenario === scenario && run.server === server);
    return mine.reduce((sum, run) => sum + run.cpuUsPerRequest * run.requests, 0) / mine.reduce((sum, run) => sum + run.requests, 0);
  };
  const figures = (['ops-get-one', 'ops-pi-create'] as const).map((scenario) => {
    const on = cpu(scenario, 'api');
    const off = cpu(scenario, 'api-unmeasured');
    const failed = runs.filter((run) => run.scenario === scenario).reduce((sum, run) => sum + run.non2xx + run.errors, 0);
    return { scenario, on, off, ratio: on / off, failed };
  });
  for (const f of figures) log(`  ${f.scenario}: ${f.on.toFixed(0)} µs CPU/req with metrics, ${f.off.toFixed(0)} without: ${f.ratio.toFixed(3)}×`);
  return {
    targets: figures.map((f) => ({
      name: `${f.scenario === 'ops-get-one' ? 'GET one business' : 'Create payment intent'} CPU/req, metrics on vs off`,
      target: `≤ ${OPS_TARGETS.cpuRatio.toFixed(2)}×`,
      measured: `${f.ratio.toFixed(3)}× (${f.on.toFixed(0)} vs ${f.off.toFixed(0)} µs${f.failed ? `, ${f.failed} failed` : ''})`,
      pass: f.ratio <= OPS_TARGETS.cpuRatio && f.failed === 0,
    })),
    results: { metricsCost: Object.fromEntries(figures.map((f) => [f.scenario, { cpuUsOn: f.on, cpuUsOff: f.off, ratio: f.ratio }])) },
  };
};
