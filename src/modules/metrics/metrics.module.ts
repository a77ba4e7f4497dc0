import { Global, Module } from '@nestjs/common';
import { OpsMetrics } from './ops-metrics';

/**
 * The process's metrics registry, global: every module may count what it does on it (the webhook
 * dispatcher, the third parties' adapters). It depends on no feature module, so any may import it;
 * the operator port (`OpsModule`) serves it.
 */
@Global()
@Module({ providers: [OpsMetrics], exports: [OpsMetrics] })
export class MetricsModule {}
