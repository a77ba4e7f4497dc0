import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Telemetry } from 'bullmq';

/** What runs while tracing is on: the provider to flush at exit, and BullMQ's telemetry. */
interface Tracing {
  shutdown(): Promise<void>;
  bullmq: Telemetry;
}

let tracing: Tracing | undefined;

/** The paths nobody needs a trace of: probes and scrapes, many a minute. */
const UNTRACED = /^\/(health\/(live|ready)|metrics)(\?|$)/;

/**
 * OpenTelemetry, on only where an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`, read
 * by the exporter itself with the other standard `OTEL_*` variables): spans of incoming HTTP
 * requests and Fastify's routes and hooks, PostgreSQL, Redis, outgoing calls (undici: the rails,
 * the providers, the chains' RPC) and BullMQ's jobs, exported in batches over OTLP/HTTP. Without
 * an endpoint nothing is loaded and every call below is a no-op. Call it before the application's
 * modules are loaded: the instrumentations patch `pg`, `ioredis` and `undici` as they are required.
 */
export function startTracing(serviceName: string, endpoint: string | null): void {
  if (!endpoint || tracing) return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, AsyncLocalStorage as the context manager, W3C trace context.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => UNTRACED.test(request.url ?? '') }),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      // Statements without their values: parameters may be account numbers or names.
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  tracing = { shutdown: () => provider.shutdown(), bullmq: new BullMQOtel('merchant-payments') };
}

/** Sends the spans not exported yet; at exit. */
export async function stopTracing(): Promise<void> {
  await tracing?.shutdown();
}

/** BullMQ's queue and worker options for tracing: a span per job added and per job run, the run a child of the add. */
export function bullmqTracing(): { telemetry?: Telemetry } {
  return tracing ? { telemetry: tracing.bullmq } : {};
}

/** The active span's W3C `traceparent`, to carry it where the context cannot go (an outbox row); null when none. */
export function currentTraceParent(): string | null {
  if (!tracing) return null;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Runs `fn` in the context `traceParent` names (see `currentTraceParent`), so its spans continue that trace. */
export function withTraceParent<T>(traceParent: string | null, fn: () => T): T {
  if (!tracing || !traceParent) return fn();
  return context.with(propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }), fn);
}

/** The active trace's id, for the log line; undefined when tracing is off or nothing is traced. */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** Whether tracing is on in this process. */
export function tracingOn(): boolean {
  return tracing !== undefined;
}
