/** What other modules may use of the operator module. */
export { OpsModule, OpsEndpoint } from './ops.module';
export { OpsMetrics } from './ops-metrics';
export { installRequestMetrics } from './request-metrics';
