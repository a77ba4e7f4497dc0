import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { ThirdPartyCalls } from './third-party-calls';

/** The request duration histogram's buckets, in seconds: from a cached read to a slow upload. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One process's metrics, in a registry of its own (not prom-client's global one: the suites run
 * several applications in one process). Labels are never an id, a key, a token or an e-mail:
 * a request is labelled by its route's template, and everything else by names the code fixes.
 */
@Injectable()
export class OpsMetrics {
  readonly registry = new Registry();
  readonly requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Wraps each third party's adapter where its module builds it. */
  readonly thirdParties: ThirdPartyCalls;
  /** False under `OPS_METRICS=off`: nothing is counted. */
  readonly enabled: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.ops.metrics;
    this.thirdParties = new ThirdPartyCalls(this.registry, this.enabled);
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status code, from arrival to the answer sent',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
  }
}
