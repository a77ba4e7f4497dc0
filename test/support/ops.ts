import { eventually } from './poll';

/**
 * Once the bank rail's circuit has closed again (its periodic reconciliation's trial call got
 * through), the withdrawals waiting out their retry backoff are promoted from the worker's queue
 * board, as an operator would, instead of waiting for the backoff.
 */
export async function retryWithdrawalsOnceRailIsBack(workerOpsPort: number): Promise<void> {
  await eventually(
    async () =>
      ((await (await fetch(`http://127.0.0.1:${workerOpsPort}/ready`)).json()) as { thirdParties: Record<string, { circuit?: string }> }).thirdParties,
    (parties) => parties.bank_rail?.circuit === 'closed',
    15_000,
    100,
  );
  const promoted = await fetch(`http://127.0.0.1:${workerOpsPort}/queues/api/queues/withdrawals/promote`, { method: 'PUT' });
  if (!promoted.ok) throw new Error(`promoting the delayed withdrawals answered ${promoted.status}: ${await promoted.text()}`);
}
