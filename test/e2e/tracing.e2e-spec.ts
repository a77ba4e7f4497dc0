import { randomBytes } from 'node:crypto';
import { ApiProcess, spawnApi, spawnWorker } from '../support/api-process';
import { acceptAgreementDirectly, kybApplication } from '../support/kyb-fixtures';
import { MoneyStack, startMoneyStack } from '../support/money-stack';
import { OtlpReceiver, ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver';
import { eventually } from '../support/poll';
import { createBusiness, http } from '../support/test-app';

/**
 * Tracing, on where an OTLP endpoint is configured: the API and the worker as production runs them
 * (their own processes, with the instrumentations loaded before the application), exporting to a
 * collector of the suite's. A job written to the outbox by a request continues the request's trace.
 */
describe('Tracing', () => {
  let stack: MoneyStack;
  let otel: OtlpReceiver;
  let api: ApiProcess;
  let worker: ApiProcess;

  beforeAll(async () => {
    stack = await startMoneyStack({ name: 'tracing', worker: false });
    otel = await startOtlpReceiver();
    const env = { ...stack.env, OTEL_EXPORTER_OTLP_ENDPOINT: otel.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    api = await spawnApi(stack.db.url, { ...env, LOG_LEVEL: 'info' });
    worker = await spawnWorker(stack.db.url, env);
  }, 60_000);

  afterAll(async () => {
    await worker?.kill();
    await api?.kill();
    await otel?.close();
    await stack?.close();
  });

  /** `span`'s ancestors among the spans received, nearest first. */
  const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
    const chain: ReceivedSpan[] = [];
    let parent = otel.spans.find((candidate) => candidate.spanId === span.parentSpanId);
    while (parent) {
      chain.push(parent);
      const next = parent.parentSpanId;
      parent = otel.spans.find((candidate) => candidate.spanId === next);
    }
    return chain;
  };

  it("a KYB submission's forwarding job runs in the request's trace, as a descendant of the request's span, and its log line carries the trace id", async () => {
    const { apiKey } = await stack.t.createMerchant();
    const { poboUserId } = await createBusiness({ baseUrl: api.baseUrl }, apiKey, { businessName: 'Traced Trading Ltd' });
    await acceptAgreementDirectly(stack.pg, poboUserId);

    // The caller's own trace: the API continues it, and so does the job the request writes.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const submitted = await http(api.baseUrl, 'POST', `/api/merchant/pobo/users/${poboUserId}/onboarding`, {
      apiKey,
      body: kybApplication(`RC-${randomBytes(4).toString('hex')}`),
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(submitted.status).toBe(202);

    const job = await eventually(
      () => Promise.resolve(otel.spans.find((span) => span.service === 'merchant-payments-worker' && span.traceId === traceId && /process/i.test(span.name))),
      (found) => found !== undefined,
      15_000,
      100,
    );
    const request = otel.spans.find((span) => span.service === 'merchant-payments-api' && span.traceId === traceId && span.parentSpanId === callerSpanId);
    expect(request).toBeDefined();
    expect(request!.kind).toBe(2); // SERVER
    // The job's span descends from the request's: through the outbox row and the relay's add.
    const chain = await eventually(
      () => Promise.resolve(ancestors(job!)),
      (found) => found.some((span) => span.spanId === request!.spanId),
      5_000,
      100,
    );
    expect(chain.map((span) => span.spanId)).toContain(request!.spanId);
    // The job's own work is traced under it: its call to the verification provider, its SQL.
    const underJob = (span: ReceivedSpan) => ancestors(span).some((ancestor) => ancestor.spanId === job!.spanId);
    await eventually(
      () =>
        Promise.resolve(
          otel.spans
            .filter((span) => span.traceId === traceId && underJob(span))
            .map((span) => span.attributes['db.system.name'] ?? span.attributes['db.system'] ?? span.attributes['http.request.method']),
        ),
      (kinds) => kinds.includes('postgresql') && kinds.includes('POST'),
      10_000,
      100,
    );
    // Statements are traced without their values.
    for (const span of otel.spans.filter((candidate) => candidate.traceId === traceId)) expect(JSON.stringify(span.attributes)).not.toContain('Traced Trading');
    // The request's log line, beside its request id.
    const line = api
      .output()
      .split('\n')
      .find((candidate) => candidate.includes(`"traceId":"${traceId}"`) && candidate.includes('/onboarding'));
    expect(line).toMatch(/"reqId":"[^"]+"/);
  }, 60_000);
});
