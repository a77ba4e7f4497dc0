/** What other modules may use of the health module. */
export { HealthModule } from './health.module';
export { Readiness, ReadinessModule } from './readiness';
export type { DependencyStates } from './readiness';
