/**
 * Webhooks part of `npm run bench`:
 *
 * 1. The API's create-payment-intent with webhooks off (the merchant has no endpoint) and on (ten
 *    endpoints taking every event), alternating, `ROUNDS` rounds each at 50 connections: API CPU per
 *    request, and its ratio. Every intent records its event either way; with endpoints, the same
 *    statement also writes a delivery per endpoint. No worker runs, so the deliveries wait.
 * 2. Fan-out: ten receivers on loopback (plain `node:http`, answering 204 at once) and one worker
 *    started with the deliveries of step 1 waiting: deliveries per second until none is pending,
 *    and the worker's CPU per delivery. The worker runs with `NODE_ENV=development`, whose URL
 *    policy (`open`) allows loopback: production never connects there.
 * 3. The international pipeline (as the international part runs it, one worker) with the merchant's
 *    endpoints gone, then with the ten back, each taking every event: intents settled per second,
 *    and its ratio. Both runs' workers are started the same way (development, for the loopback
 *    receivers), so the deliveries the worker sends beside the pipeline are the only difference.
 */
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CountedClient } from '../src/common/persistence/pg-pool';
import { newId } from '../src/common/ids/ids';
import { webhookSecrets } from '../src/modules/events/webhook-endpoints.service';
import type { BenchPart } from './deployment';
import { CLK_TCK, processTicks } from './measure';
import { createPaymentIntents, type Target } from './money';
import { checkAborted, log, pidOf, stopChild } from './processes';
import { preparePipelines, pipelineInput } from './international';
import { ROUNDS, WARMUP_S } from './settings';
import { formatRoundTrips, roundTripSnapshot, roundTripsPer } from './round-trips';

export type WebhooksScenario = 'pi-create-webhooks-off' | 'pi-create-webhooks-on';

export const WEBHOOK_TARGETS = {
  /** API CPU per create-payment-intent request with ten endpoints ÷ with none. */
  createCpuRatio: 1.1,
  /** International intents settled per second with ten endpoints ÷ with none. */
  pipelineRatio: 0.8,
};

const RECEIVERS = 10;
const FAN_OUT_TIMEOUT_MS = 300_000;

interface Receivers {
  urls: string[];
  received: () => number;
  close: () => Promise<void>;
}

async function startReceivers(count: number): Promise<Receivers> {
  let received = 0;
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received++;
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  return {
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`),
    received: () => received,
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

export const runWebhooksPart: BenchPart = async (d) => {
  log('');
  log(`webhooks: create payment intent with ${RECEIVERS} endpoints against none, then their fan-out to ${RECEIVERS} loopback receivers`);
  const pg = new CountedClient({ connectionString: d.databaseUrl });
  await pg.connect();
  const receivers = await startReceivers(RECEIVERS);
  try {
    const tag = randomBytes(4).toString('hex');
    const creates = (phase: string) => createPaymentIntents(d.apiKey, `${tag}-wh`, phase);
    const subscribe = async (on: boolean) => {
      await pg.query('DELETE FROM webhook_endpoints WHERE merchant_id = $1', [d.merchantId]);
      // Written as the service writes them: the worker opens the sealed secret to sign each delivery.
      const sealed = webhookSecrets(d).seal(`whsec_${randomBytes(32).toString('base64')}`);
      if (on)
        for (const url of receivers.urls)
          await pg.query(`INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, sealed_secret) VALUES ($1, $2, $3, '{*}', $4)`, [
            newId('we'),
            d.merchantId,
            url,
            sealed,
          ]);
    };

    // 1. Create payment intent, webhooks off and on, alternating.
    await d.warm('warm-up api create payment intent (webhooks)', 'api', creates('warm'), { durationS: WARMUP_S });
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await subscribe(false);
      off.push((await d.measure('pi-create-webhooks-off', 'api', round, creates(`off-${round}`))).cpuUsPerRequest);
      await subscribe(true);
      on.push((await d.measure('pi-create-webhooks-on', 'api', round, creates(`on-${round}`))).cpuUsPerRequest);
      checkAborted();
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const cpuRatio = mean(on) / mean(off);
    log(
      `create payment intent: API CPU ${Math.round(mean(off))} µs/request with no endpoint, ${Math.round(mean(on))} µs with ${RECEIVERS}: ${cpuRatio.toFixed(3)}×`,
    );

    // 2. Fan-out of what step 1 owes the endpoints, through one worker. The endpoints the last
    // round left in place are the ones the deliveries point at; earlier rounds' went with theirs.
    await sleep(500);
    const deliveries = (await pg.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE state = 'pending'`)).rows[0].pending;
    // Round trips per delivery: the worker counts from its start (its boot's few statements are in, over thousands of deliveries).
    const tripsBefore = await roundTripSnapshot(pg, []);
    const worker = await d.startWorker('webhook worker', { env: { NODE_ENV: 'development' } });
    const pid = pidOf(worker);
    const ticksBefore = processTicks(pid);
    const started = Date.now();
    let pending = deliveries;
    while (pending > 0 && Date.now() - started < FAN_OUT_TIMEOUT_MS) {
      await sleep(100);
      pending = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending'`)).rows[0].n;
      checkAborted();
    }
    const seconds = (Date.now() - started) / 1000;
    const cpuS = (processTicks(pid) - ticksBefore) / CLK_TCK;
    const roundTripsPerDelivery = roundTripsPer(tripsBefore, await roundTripSnapshot(pg, [worker.opsUrl], tripsBefore), deliveries);
    await stopChild(worker.child);
    const received = receivers.received();
    if (pending > 0) throw new Error(`fan-out: ${pending} of ${deliveries} deliveries still pending after ${FAN_OUT_TIMEOUT_MS / 1000} s`);
    const failed = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_attempts WHERE status_code IS DISTINCT FROM 204`)).rows[0].n;
    const perSecond = deliveries / seconds;
    const cpuMsPerDelivery = (cpuS * 1000) / deliveries;
    log(
      `fan-out: ${deliveries} deliveries to ${RECEIVERS} receivers in ${seconds.toFixed(1)} s, ${Math.round(perSecond)}/s; ` +
        `worker CPU ${cpuMsPerDelivery.toFixed(2)} ms per delivery; ${received} received, ${failed} attempts not 204; per delivery ${formatRoundTrips(roundTripsPerDelivery)}`,
    );

    // 3. The international pipeline, endpoints off then on. The receivers count afresh.
    log('');
    log(`webhooks: the international pipeline (one worker) with no endpoint, then with ${RECEIVERS} taking every event`);
    const pipelines = await preparePipelines(pipelineInput(d, { NODE_ENV: 'development' }), pg, 2);
    await subscribe(false);
    const pipelineOff = await pipelines.run(1);
    await subscribe(true);
    const receivedBefore = receivers.received();
    const pipelineOn = await pipelines.run(1);
    const deliveredDuringRun = receivers.received() - receivedBefore;
    await subscribe(false);
    const pipelineRatio = pipelineOn.intentsPerS / pipelineOff.intentsPerS;
    const settled = (run: typeof pipelineOn) => (run.byStatus.settled ?? 0) === run.intents && run.ledgerVerify.ok;
    log(
      `international pipeline: ${pipelineOff.intentsPerS.toFixed(1)} intents/s with no endpoint, ${pipelineOn.intentsPerS.toFixed(1)} with ${RECEIVERS} ` +
        `(${deliveredDuringRun} deliveries received meanwhile): ${pipelineRatio.toFixed(3)}×`,
    );

    const targets: Target[] = [
      {
        name: `international pipeline: intents/s with ${RECEIVERS} webhook endpoints ÷ with none`,
        target: `≥ ${WEBHOOK_TARGETS.pipelineRatio}×`,
        measured: `${pipelineRatio.toFixed(3)}× (${pipelineOn.intentsPerS.toFixed(1)} vs ${pipelineOff.intentsPerS.toFixed(1)}; ${deliveredDuringRun} deliveries meanwhile)`,
        pass: pipelineRatio >= WEBHOOK_TARGETS.pipelineRatio && settled(pipelineOff) && settled(pipelineOn),
      },
      {
        name: `create payment intent: API CPU with ${RECEIVERS} webhook endpoints ÷ with none`,
        target: `≤ ${WEBHOOK_TARGETS.createCpuRatio}×`,
        measured: `${cpuRatio.toFixed(3)}×`,
        pass: cpuRatio <= WEBHOOK_TARGETS.createCpuRatio,
      },
      {
        name: `webhook fan-out (${deliveries} deliveries, ${RECEIVERS} receivers): every one delivered once`,
        target: 'all delivered, none failed',
        measured: `${received} received, ${failed} failed attempts`,
        pass: failed === 0 && received >= deliveries,
      },
    ];
    return {
      targets,
      results: {
        webhooks: {
          createCpuUsPerRequest: { off, on, ratio: cpuRatio },
          fanOut: { deliveries, receivers: RECEIVERS, seconds, perSecond, workerCpuMsPerDelivery: cpuMsPerDelivery, received, failed, roundTripsPerDelivery },
          pipeline: { off: pipelineOff, on: pipelineOn, ratio: pipelineRatio, deliveredDuringRun },
        },
      },
    };
  } finally {
    await receivers.close();
    await pg.end();
  }
};
