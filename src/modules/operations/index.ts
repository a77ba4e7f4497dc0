/** What other modules may use of the operations module: the one way to declare an HTTP operation of the merchant API or the dashboard. */
export { Operation } from './operation.decorator';
export type { OperationSpec } from './operation.decorator';
