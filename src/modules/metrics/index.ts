/** What other modules may use of the process's metrics. */
export { MetricsModule } from './metrics.module';
export { OpsMetrics } from './ops-metrics';
export { installRequestMetrics } from './request-metrics';
export { oncePerScrape } from './scrape';
