import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import type { ChainName } from '../../config/vault-chains.config';
import { newId } from '../../common/ids/ids';
import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import type { BalanceTransactionType } from './balance-transaction.entity';
import { InsufficientFundsError } from './ledger.errors';
import { AccountDelta, BalanceTransactionRow, DailyRows, LedgerRepository, LedgerVerification } from './ledger.repository';

/**
 * The platform's own accounts. Credits are positive, so an asset (money we hold at the rail)
 * carries a negative balance: `bank_rail` is minus what the rail holds for us, and a receivable
 * (`receivable_*`: money a rail owes back after a late rejection, which the platform advanced to
 * the merchant) is negative too. The international positions are credited, like the merchant's
 * reservation they come from, with the NGN of each payment while it is on its way to the bridge
 * rail (`bridge_rail_in_transit`), held there (`at_bridge_rail`), on its way through the payout
 * rail (`payout_rail_in_transit`) and once paid to its recipient (`paid_abroad`). When an operator
 * clears a receivable, money recovered by hand closes the position and the receivable, any shortfall
 * or excess against what was advanced going to `recovery_differences` (and `bank_rail`, which
 * received it); a write-off moves the position to `lost_at_rails` and the receivable to the
 * `written_off` expense.
 */
export type PlatformAccount =
  | 'bank_rail'
  | 'unconfirmed_collections'
  | 'returns_payable'
  | 'fee_revenue'
  | 'bridge_rail_in_transit'
  | 'at_bridge_rail'
  | 'payout_rail_in_transit'
  | 'paid_abroad'
  | 'receivable_bridge_rail'
  | 'receivable_payout_rail'
  | 'recovery_differences'
  | 'lost_at_rails'
  | 'written_off'
  | `custody_${ChainName}`
  | 'vault_network_fees';
export type MerchantAccount = 'available' | 'reserved';
/** A business's vault on one chain: what it may transfer out, and what is held for transfers on their way. */
export type VaultAccount = 'vault_available' | 'vault_reserved';

/** One business's vault on one chain; its accounts are the merchant's (kept balances, never below zero). */
export interface VaultRef {
  merchantId: string;
  poboUserId: string;
  chain: ChainName;
}

export type AccountRef = { merchantId: string; kind: MerchantAccount } | { platform: PlatformAccount } | { vault: VaultRef; kind: VaultAccount };

/** A vault account's balance, as `vaultBalances` reads it. */
export interface VaultAccountBalance {
  poboUserId: string;
  chain: ChainName;
  kind: VaultAccount;
  /** Minor units (micro-USDC). */
  balance: number;
}

export interface Posting {
  /** What moved the money, e.g. `withdrawal_reserved`. */
  type: string;
  /** The payment, intent or withdrawal behind it. */
  sourceId: string;
  currency: string;
  /** Minor units, credits positive; they must sum to zero. */
  lines: { account: AccountRef; amount: number }[];
  /** How the merchant sees the change of its available balance. */
  balanceTransactions?: { merchantId: string; type: BalanceTransactionType; amount: number; poboUserId?: string }[];
  /** Why, for a movement an operator made. */
  note?: string;
}

export interface MerchantBalance {
  currency: string;
  available: number;
  reserved: number;
}

/** Money a rail owes the platform for a payment (see `PlatformAccount`), as `ledger:verify` lists it. */
export interface OpenReceivable {
  /** The payment it is for (an international payment intent). */
  sourceId: string;
  /** Who owes it, e.g. `bridge_rail`. */
  owedBy: string;
  currency: string;
  /** Major units. */
  amount: number;
  openedAt: string;
  ageHours: number;
}

export interface BalanceTransactionView {
  balanceTransactionId: string;
  type: BalanceTransactionType;
  amount: number;
  currency: string;
  sourceId: string;
  /** The business it is about, for a collection; null otherwise. */
  poboUserId: string | null;
  createdAt: string;
}

export function accountId(account: AccountRef, currency: string): string {
  if ('platform' in account) return `platform:${account.platform}:${currency}`;
  if ('vault' in account) return `${account.vault.poboUserId}:${account.vault.chain}:${account.kind}:${currency}`;
  return `${account.merchantId}:${account.kind}:${currency}`;
}

/** The business, chain and kind of a vault account's id (see `accountId`). */
function parseVaultAccountId(id: string): Omit<VaultAccountBalance, 'balance'> {
  const [poboUserId, chain, kind] = id.split(':');
  return { poboUserId, chain: chain as ChainName, kind: kind as VaultAccount };
}

const VAULT_KINDS: readonly VaultAccount[] = ['vault_available', 'vault_reserved'];

/** One day of a merchant's money, from its balance transactions: amounts in major units, each counted. */
export interface DailyActivity {
  /** `YYYY-MM-DD` in the time zone asked for. */
  date: string;
  /** Payments and Naira account collections credited. */
  collected: number;
  collectedCount: number;
  /** Withdrawals, less those that failed and came back. */
  paidOut: number;
  paidOutCount: number;
  /** International payments, less those rejected and returned. */
  sentAbroad: number;
  sentAbroadCount: number;
  fees: number;
  /** The available balance at the day's end (now, for today). */
  closingAvailable: number;
}

/** A day's figures in minor units, as `daily` adds them up. */
interface DaySums {
  collected: number;
  paidOut: number;
  sentAbroad: number;
  fees: number;
  /** The change of the available balance. */
  net: number;
  collectedCount: number;
  paidOutCount: number;
  sentAbroadCount: number;
}

/**
 * Which figure of a day each balance transaction type adds to, as money in (+1) or out (-1: its
 * amount is negative), and which count it adds one to (a reversal adds none: it undoes one).
 */
const DAILY_FIGURES: Record<BalanceTransactionType, { figure: 'collected' | 'paidOut' | 'sentAbroad' | 'fees'; sign: 1 | -1; count?: keyof DaySums }> = {
  payment: { figure: 'collected', sign: 1, count: 'collectedCount' },
  collection: { figure: 'collected', sign: 1, count: 'collectedCount' },
  withdrawal: { figure: 'paidOut', sign: -1, count: 'paidOutCount' },
  withdrawal_reversal: { figure: 'paidOut', sign: -1 },
  international_payment: { figure: 'sentAbroad', sign: -1, count: 'sentAbroadCount' },
  international_payment_reversal: { figure: 'sentAbroad', sign: -1 },
  fee: { figure: 'fees', sign: -1 },
};

/** A posting checked and reduced to what its statement writes. */
interface PreparedPosting {
  posting: Posting;
  accounts: AccountDelta[];
}

/**
 * The double-entry ledger: every movement of money is one balanced transaction, posted in the
 * caller's database transaction together with the change that causes it. A merchant's balances
 * are kept in step by the same statement, under row locks taken in account order, and never go
 * below zero (the posting refuses it, and a CHECK constraint stands behind that). Platform
 * accounts keep no balance and are never locked (see `LedgerAccountEntity`).
 */
@Injectable()
export class LedgerService implements EntitySubscriberInterface {
  /**
   * The days before today of the daily figures already read, by merchant, currency, zone and
   * window: they never change (balance transactions are append-only and dated by their
   * transaction's start), so only today is read again. One map per process, bounded.
   */
  private readonly pastDays = new Map<string, PastDays>();
  /** `postAtCommit`'s postings, by the transaction they wait for. */
  private readonly atCommit = new WeakMap<QueryRunner, PreparedPosting[]>();

  constructor(
    private readonly repository: LedgerRepository,
    @InjectDataSource() dataSource: DataSource,
  ) {
    dataSource.subscribers.push(this);
  }

  /** Posts `posting`; throws InsufficientFundsError when a merchant account would go below zero. */
  async post(manager: EntityManager, posting: Posting): Promise<void> {
    await this.write(manager, prepare(posting));
  }

  /**
   * Posts `posting` as the caller's transaction commits, right before its COMMIT, after whatever
   * else the transaction writes: the accounts' rows it locks are then held for one round trip,
   * however many statements the transaction sends after deciding the move. For a move among
   * several in one transaction (an intent's steps), whose money cannot fall short. Checked now,
   * so an unbalanced posting fails where it is made; postings wait in the order they were made.
   */
  postAtCommit(manager: EntityManager, posting: Posting): void {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) throw new Error(`ledger: ${posting.type} posted at commit outside a transaction`);
    const prepared = prepare(posting);
    const waiting = this.atCommit.get(runner);
    if (waiting) waiting.push(prepared);
    else this.atCommit.set(runner, [prepared]);
  }

  /** TypeORM's hook, awaited before COMMIT; a posting that fails here rolls the transaction back. */
  async beforeTransactionCommit({ queryRunner, manager }: TransactionCommitEvent): Promise<void> {
    const waiting = this.atCommit.get(queryRunner);
    if (!waiting) return;
    this.atCommit.delete(queryRunner);
    for (const prepared of waiting) await this.write(manager, prepared);
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    this.atCommit.delete(queryRunner);
  }

  private async write(manager: EntityManager, { posting, accounts }: PreparedPosting): Promise<void> {
    const balanceTransactions = (posting.balanceTransactions ?? []).filter((b) => b.amount !== 0).map((b) => ({ ...b, id: newId('btx') }));
    // Thrown inside the caller's transaction, which then rolls back what the statement wrote.
    if (
      !(await this.repository.post(
        manager,
        newId('ltx'),
        posting.type,
        posting.sourceId,
        posting.currency,
        accounts,
        balanceTransactions,
        posting.note ?? null,
      ))
    ) {
      throw new InsufficientFundsError();
    }
  }

  async balance(merchantId: string, currency: string): Promise<MerchantBalance> {
    const rows = await this.repository.balances(merchantId, currency);
    const of = (kind: MerchantAccount) => toMajorUnits(minorFromColumn(rows.find((row) => row.kind === kind)?.balance ?? 0), currency);
    return { currency, available: of('available'), reserved: of('reserved') };
  }

  /**
   * The vault accounts of one business on `chains`, or of every business when `poboUserId` is
   * undefined (for reconciliation), in `currency`. An account never posted to is absent.
   */
  async vaultBalances(currency: string, poboUserId?: string, chains: readonly ChainName[] = []): Promise<VaultAccountBalance[]> {
    const ids =
      poboUserId === undefined
        ? undefined
        : chains.flatMap((chain) => VAULT_KINDS.map((kind) => accountId({ vault: { merchantId: '', poboUserId, chain }, kind }, currency)));
    return (await this.repository.accountBalances(VAULT_KINDS, currency, ids)).map((row) => ({
      ...parseVaultAccountId(row.id),
      balance: minorFromColumn(row.balance),
    }));
  }

  /**
   * The merchant's vaults: a page of its businesses that hold a vault account in `currency`, in
   * business id order after `afterPoboUserId`, with their available balance on each chain
   * (a business appears once a deposit was credited to it).
   */
  async vaultHolders(
    merchantId: string,
    currency: string,
    chains: number,
    limit: number,
    afterPoboUserId?: string,
  ): Promise<{ poboUserId: string; accounts: VaultAccountBalance[] }[]> {
    const holders = new Map<string, VaultAccountBalance[]>();
    for (const row of await this.repository.accountsByBusiness(merchantId, 'vault_available', currency, limit, chains, afterPoboUserId)) {
      const account = { ...parseVaultAccountId(row.id), balance: minorFromColumn(row.balance) };
      const accounts = holders.get(account.poboUserId);
      if (accounts) accounts.push(account);
      else holders.set(account.poboUserId, [account]);
    }
    // The last business read may have more accounts than the rows reached: it starts the next page.
    return [...holders].slice(0, limit).map(([poboUserId, accounts]) => ({ poboUserId, accounts }));
  }

  /** The merchant's available vault balance in `currency` on each chain, summed over its businesses (minor units). */
  async vaultTotals(merchantId: string, currency: string): Promise<Map<ChainName, number>> {
    const rows = await this.repository.sumsByIdPart(merchantId, 'vault_available', currency, 2);
    return new Map(rows.map((row) => [row.key as ChainName, minorFromColumn(row.balance)]));
  }

  /**
   * The merchant's last `days` days in `timeZone`, oldest first, today last: what came in and went
   * out each day, and the available balance at each day's end, walked back from the balance now
   * by each day's net change (every change of the available balance is a balance transaction).
   */
  async daily(merchantId: string, currency: string, days: number, timeZone: string): Promise<DailyActivity[]> {
    const account = accountId({ merchantId, kind: 'available' }, currency);
    const key = `${merchantId}|${currency}|${timeZone}|${days}`;
    // Today's sums and the balance now, in one statement; the days before from memory when they are there.
    let rows = await this.repository.daily(merchantId, account, currency, 1, timeZone);
    let past = this.pastDays.get(key);
    if (past?.today !== rows.today) {
      rows = await this.repository.daily(merchantId, account, currency, days, timeZone);
      past = { today: rows.today, days: dayFigures(rows.sums, rows.today, days, currency).slice(0, -1) };
      // A posting dated just before midnight may still be committing just after it: the days
      // before today are kept only once today has been going on long enough for them to be whole.
      if (rows.secondsIntoToday >= PAST_DAYS_SETTLE_S) this.rememberPastDays(key, past);
    }
    const window = [...past.days, ...dayFigures(rows.sums, rows.today, 1, currency)];
    // Each day's closing balance, walked back from the balance now by each later day's net change.
    const activity: DailyActivity[] = new Array<DailyActivity>(window.length);
    let closing = minorFromColumn(rows.available);
    for (let i = window.length - 1; i >= 0; i--) {
      const day = window[i];
      activity[i] = {
        date: day.date,
        collected: day.collected,
        collectedCount: day.collectedCount,
        paidOut: day.paidOut,
        paidOutCount: day.paidOutCount,
        sentAbroad: day.sentAbroad,
        sentAbroadCount: day.sentAbroadCount,
        fees: day.fees,
        closingAvailable: toMajorUnits(closing, currency),
      };
      closing -= day.net;
    }
    return activity;
  }

  /** Keeps a merchant's past days, forgetting the least recently kept past `PAST_DAYS_KEPT`. */
  private rememberPastDays(key: string, past: PastDays): void {
    this.pastDays.delete(key);
    this.pastDays.set(key, past);
    if (this.pastDays.size > PAST_DAYS_KEPT) this.pastDays.delete(this.pastDays.keys().next().value!);
  }

  /** A page (newest first) of the merchant's balance transactions; undefined for a cursor that is not one of them. */
  async balanceTransactions(merchantId: string, limit: number, after?: string): Promise<BalanceTransactionView[] | undefined> {
    return (await this.repository.listBalanceTransactions(merchantId, limit, after))?.map(mapBalanceTransaction);
  }

  /** The ledger's own checks, over what was written since the last run that held (`full`: over everything); see `LedgerRepository.verify`. */
  verify(options: { full: boolean }): Promise<LedgerVerification> {
    return this.repository.verify(options.full);
  }

  /**
   * Where one payment's money is among the platform's accounts (minor units by account, credits
   * positive), read in the caller's transaction: positions at the rails, receivables.
   */
  async platformPositions(manager: EntityManager, sourceId: string, currency: string): Promise<Partial<Record<PlatformAccount, number>>> {
    return (await this.platformPositionsOf(manager, [sourceId], currency)).get(sourceId) ?? {};
  }

  /** `platformPositions` of many payments at once (in `manager`'s transaction when given); a payment with none is absent. */
  async platformPositionsOf(
    manager: EntityManager | undefined,
    sourceIds: string[],
    currency: string,
  ): Promise<Map<string, Partial<Record<PlatformAccount, number>>>> {
    const positions = new Map<string, Partial<Record<PlatformAccount, number>>>();
    for (const row of await this.repository.platformPositions(manager, sourceIds, currency)) {
      const of = positions.get(row.source_id) ?? {};
      of[row.kind as PlatformAccount] = minorFromColumn(row.amount);
      positions.set(row.source_id, of);
    }
    return positions;
  }

  /** The payments with money left in one of `accounts` (a position at a rail, say), by id. */
  sourcesOpenIn(accounts: readonly PlatformAccount[], currency: string): Promise<string[]> {
    return this.repository.sourcesOpenIn(accounts, currency);
  }

  /** Whether any money was ever posted to one of `accounts`. */
  everPostedTo(accounts: readonly PlatformAccount[]): Promise<boolean> {
    return this.repository.everPostedTo(accounts);
  }

  /** Every receivable still open, oldest first. */
  async openReceivables(now = Date.now()): Promise<OpenReceivable[]> {
    return (await this.repository.openReceivables()).map((row) => ({
      sourceId: row.source_id,
      owedBy: row.kind.replace(/^receivable_/, ''),
      currency: row.currency,
      amount: toMajorUnits(minorFromColumn(row.owed), row.currency),
      openedAt: row.opened_at.toISOString(),
      ageHours: Math.floor(((now - row.opened_at.getTime()) / 3_600_000) * 100) / 100,
    }));
  }
}

function mapBalanceTransaction(row: BalanceTransactionRow): BalanceTransactionView {
  return {
    balanceTransactionId: row.id,
    type: row.type,
    amount: toMajorUnits(minorFromColumn(row.amount), row.currency),
    currency: row.currency,
    sourceId: row.source_id,
    poboUserId: row.pobo_user_id,
    createdAt: row.created_at.toISOString(),
  };
}

/** How long into today the days before it are taken as whole (no posting of theirs still committing). */
const PAST_DAYS_SETTLE_S = 60;
/** The most windows `LedgerService.daily` keeps in memory. */
const PAST_DAYS_KEPT = 1000;

/** A day's figures as the API shows them, but its closing balance (which moves with every later posting), and its net change in minor units. */
type DayFigures = Omit<DailyActivity, 'closingAvailable'> & { net: number };

/** The days before today of one window, oldest first, as of `today`. */
interface PastDays {
  today: string;
  days: DayFigures[];
}

function noSums(): DaySums {
  return { collected: 0, paidOut: 0, sentAbroad: 0, fees: 0, net: 0, collectedCount: 0, paidOutCount: 0, sentAbroadCount: 0 };
}

/** The `days` days up to `today`, oldest first, each with its figures from the sums by day and type (a day without any has zeros). */
function dayFigures(rows: DailyRows['sums'], today: string, days: number, currency: string): DayFigures[] {
  const sums = new Map<string, DaySums>();
  for (const row of rows) {
    let day = sums.get(row.day);
    if (!day) sums.set(row.day, (day = noSums()));
    const amount = minorFromColumn(row.amount);
    const { figure, sign, count } = DAILY_FIGURES[row.type];
    day[figure] += sign * amount;
    day.net += amount;
    if (count) day[count] += row.count;
  }
  const figures = new Array<DayFigures>(days);
  const date = new Date(`${today}T00:00:00Z`);
  for (let i = days - 1; i >= 0; i--, date.setUTCDate(date.getUTCDate() - 1)) {
    const day = date.toISOString().slice(0, 10);
    const sum = sums.get(day) ?? noSums();
    figures[i] = {
      date: day,
      collected: toMajorUnits(sum.collected, currency),
      collectedCount: sum.collectedCount,
      paidOut: toMajorUnits(sum.paidOut, currency),
      paidOutCount: sum.paidOutCount,
      sentAbroad: toMajorUnits(sum.sentAbroad, currency),
      sentAbroadCount: sum.sentAbroadCount,
      fees: toMajorUnits(sum.fees, currency),
      net: sum.net,
    };
  }
  return figures;
}

/** Checks that `posting` balances in whole minor units, and sums its lines per account. */
function prepare(posting: Posting): PreparedPosting {
  const deltas = new Map<string, AccountDelta>();
  let sum = 0;
  for (const { account, amount } of posting.lines) {
    if (!Number.isSafeInteger(amount) || amount === 0) throw new Error(`ledger: ${posting.type} has a line of ${amount}`);
    sum += amount;
    const id = accountId(account, posting.currency);
    const existing = deltas.get(id);
    if (existing) existing.delta += amount;
    else
      deltas.set(id, {
        id,
        merchantId: 'platform' in account ? null : 'vault' in account ? account.vault.merchantId : account.merchantId,
        kind: 'platform' in account ? account.platform : account.kind,
        delta: amount,
      });
  }
  if (sum !== 0) throw new Error(`ledger: ${posting.type} does not balance (${sum})`);
  return { posting, accounts: [...deltas.values()].filter((a) => a.delta !== 0).sort((a, b) => (a.id < b.id ? -1 : 1)) };
}
