/** What other modules may use of the operator module. */
export { OpsModule, OpsEndpoint } from './ops.module';
