import { context, trace } from '@opentelemetry/api';
import { activeTraceId, bullmqTracing, currentTraceParent, startTracing, tracingOn, withTraceParent } from './tracing';

describe('tracing without an endpoint', () => {
  it('stays off: nothing loaded, no traceparent recorded, no telemetry given to BullMQ, the work run as is', () => {
    startTracing('merchant-payments-api', null);
    expect(tracingOn()).toBe(false);
    expect(Object.keys(require.cache).some((path) => path.includes('sdk-trace'))).toBe(false);
    expect(bullmqTracing()).toEqual({});
    expect(currentTraceParent()).toBeNull();
    expect(withTraceParent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', () => activeTraceId())).toBeUndefined();
    expect(trace.getSpan(context.active())).toBeUndefined();
  });
});
