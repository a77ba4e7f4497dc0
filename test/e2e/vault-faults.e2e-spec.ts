import { randomBytes } from 'node:crypto';
import { generateKeyPairSigner } from '@solana/kit';
import Redis from 'ioredis';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../src/config/app.config';
import { createChainClients } from '../../src/modules/chains';
import { ApiProcess, spawnWorker } from '../support/api-process';
import { carefulClient, cutConnectionsInLoop } from '../support/faults';
import { verifiedBusiness } from '../support/international';
import { ledgerVerify, newKey } from '../support/money-stack';
import { eventually, sleep } from '../support/poll';
import { startStack, Stack } from '../support/stack';

/** A Redis database of this suite's own, so wiping it touches no other suite. */
const REDIS_URL = 'redis://127.0.0.1:6379/8';
const CHAINS = ['base', 'solana'] as const;
type Chain = (typeof CHAINS)[number];
const BUSINESSES = 2;
const DEPOSIT = 30;
const TRANSFERS_EACH = 3;
const AMOUNT = 2;

/**
 * The vault as the Naira side is tried: deposits and transfers out on an EVM chain and on Solana
 * while the worker process is SIGKILLed over and over (at whatever point of signing, broadcasting
 * or recording it is), every PostgreSQL connection of the API and the worker is cut in a loop, and
 * Redis loses all its data halfway. The clients retry as the contract asks (the same key after a
 * 503 or 423). At the end every transfer is final and confirmed, each recipient holds on its chain
 * exactly what was confirmed to it, each vault what its deposits less its transfers and fees say,
 * and `ledger:verify` reconciles the ledger with the chains.
 */
describe('The vault under faults: worker SIGKILLs, PostgreSQL connections cut, Redis wiped', () => {
  let stack: Stack;
  let apiKey: string;
  let worker: ApiProcess | undefined;
  let redis: Redis;

  beforeAll(async () => {
    stack = await startStack({
      name: 'vault-faults',
      sandboxes: {},
      chains: { confirmations: 2, blockIntervalMs: 200 },
      merchants: ['faults'],
      env: { REDIS_URL, JOB_LOCK_MS: '2000', IDEMPOTENCY_LOCK_MS: '2000', PERIODIC_JOB_INTERVAL_MS: '300', DB_POOL_SIZE: '6' },
    });
    apiKey = stack.merchants[0].apiKey;
    redis = new Redis(REDIS_URL);
  }, 120_000);

  afterAll(async () => {
    await worker?.kill();
    await redis?.flushdb();
    redis?.disconnect();
    await stack?.close();
  });

  it('ends with every transfer confirmed once, every deposit credited once, the chains and the ledger in agreement', async () => {
    worker = await spawnWorker(stack.db.url, stack.env);
    const businesses = await Promise.all(Array.from({ length: BUSINESSES }, () => verifiedBusiness(stack, apiKey)));

    const statuses = new Map<number, number>();
    const client = carefulClient(() => stack.t.baseUrl, statuses);
    const retried = (method: string, path: string, body?: unknown, key?: string) => client(method, path, apiKey, body, key);
    const available = async (poboUserId: string, chain: Chain): Promise<number> =>
      (await retried('GET', `/api/merchant/pobo/users/${poboUserId}/vault`)).body.response.balances.find((b: { chain: string }) => b.chain === chain).available;

    // The faults, until the load is done: the worker killed at random moments of its work and
    // started again, every database session but this suite's own cut, and Redis wiped once.
    let faulting = true;
    let kills = 0;
    let wiped = false;
    let failedBoots = 0;
    /** A worker again; one whose boot a cut connection broke exits, and the next try starts it. */
    const restart = async () => {
      for (;;) {
        try {
          worker = await spawnWorker(stack.db.url, stack.env);
          return;
        } catch (err) {
          if (!faulting) throw err;
          failedBoots++;
        }
      }
    };
    const killLoop = (async () => {
      while (faulting) {
        // A worker takes seconds to boot (longer while its connections are cut): each is killed
        // 4 to 8 s into its work, at whatever point of it that is.
        await sleep(4_000 + Math.random() * 4_000);
        if (!faulting) break;
        await worker.kill();
        kills++;
        await restart();
      }
    })();
    const cutter = await cutConnectionsInLoop(stack.db.url, stack.pg);
    let cuts = 0;

    const recipients: { chain: Chain; address: string; transferIds: string[] }[] = [];
    const load = Promise.all(
      businesses.flatMap((poboUserId, b) =>
        CHAINS.map(async (chain) => {
          const deposit = await retried('POST', '/api/merchant/test-helpers/vault/deposits', { poboUserId, chain, amount: DEPOSIT }, newKey());
          expect(deposit.status).toBe(202);
          expect(
            await eventually(
              () => available(poboUserId, chain),
              (now) => now === DEPOSIT,
              120_000,
              200,
            ),
          ).toBe(DEPOSIT);
          // Halfway through (the first vault credited): Redis loses everything.
          if (!wiped) {
            wiped = true;
            await redis.flushdb();
          }
          const to = chain === 'solana' ? (await generateKeyPairSigner()).address : privateKeyToAccount(generatePrivateKey()).address;
          const recipient = { chain, address: to, transferIds: [] as string[] };
          recipients.push(recipient);
          for (let i = 0; i < TRANSFERS_EACH; i++) {
            const created = await retried(
              'POST',
              '/api/merchant/vault-transfers',
              {
                poboUserId,
                chain,
                asset: 'USDC',
                amount: AMOUNT,
                toAddress: to,
                merchantReference: `fault-${b}-${chain}-${i}-${randomBytes(3).toString('hex')}`,
              },
              newKey(),
            );
            expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
            recipient.transferIds.push(created.body.response.vaultTransferId);
          }
        }),
      ),
    );
    // The faults go on while the worker sends, rebroadcasts and confirms the transfers: until each
    // is final (or two minutes have passed, which the next assertion then shows).
    const finalStates = async () =>
      (
        await stack.pg.query<{ id: string; status: string }>(`SELECT id, status FROM vault_transfers WHERE id = ANY($1)`, [
          recipients.flatMap((r) => r.transferIds),
        ])
      ).rows;
    const ids = () => recipients.flatMap((r) => r.transferIds);
    const isFinal = (rows: { status: string }[]) => rows.length === ids().length && rows.every((row) => row.status === 'confirmed' || row.status === 'failed');
    await load
      .then(() => eventually(finalStates, isFinal, 120_000, 250))
      .finally(async () => {
        faulting = false;
        [cuts] = await Promise.all([cutter.stop(), killLoop]);
      });
    // Faults over: the last worker finishes whatever the deadline left.
    const finals = await eventually(finalStates, isFinal, 60_000, 250);
    const byStatus = finals.reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.status]: (counts[row.status] ?? 0) + 1 }), {});
    expect(byStatus).toEqual({ confirmed: BUSINESSES * CHAINS.length * TRANSFERS_EACH });

    const clients = createChainClients(loadConfig({ NODE_ENV: 'test', DATABASE_URL: stack.db.url, ...stack.env }));
    for (const { chain, address } of recipients)
      expect({ address, held: await clients.get(chain)!.usdcBalance(address) }).toEqual({ address, held: BigInt(TRANSFERS_EACH * AMOUNT * 1_000_000) });
    const fees = { base: 0.05, solana: 0.01 };
    for (const poboUserId of businesses) {
      for (const chain of CHAINS) expect(await available(poboUserId, chain)).toBe(Number((DEPOSIT - TRANSFERS_EACH * (AMOUNT + fees[chain])).toFixed(6)));
    }
    const deposits = await stack.pg.query(`SELECT status, count(*)::int AS n FROM vault_transactions WHERE direction = 'deposit' GROUP BY status`);
    expect(deposits.rows).toEqual([{ status: 'confirmed', n: BUSINESSES * CHAINS.length }]);
    expect([...statuses.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(worker.output()).not.toMatch(/crashed|Unhandled 'error' event/);
    const verified = await ledgerVerify(stack);
    expect({ code: verified.code, vaultDifferences: verified.report.vaultDifferences }).toEqual({ code: 0, vaultDifferences: [] });
    process.stdout.write(
      `vault faults: ${finals.length} transfers (${JSON.stringify(byStatus)}), ${BUSINESSES * CHAINS.length} deposits, ${kills} worker SIGKILLs ` +
        `(${failedBoots} boots broken by a cut and retried), ` +
        `${cuts} sessions cut, Redis wiped once; answers by status ${JSON.stringify(Object.fromEntries(statuses))}; ledger:verify exit ${verified.code}\n`,
    );
  }, 300_000);
});
