import { Inject, Injectable } from '@nestjs/common';
import { SOURCE_CURRENCY } from './fx';
import { toMajorUnits } from '../../common/money/money';
import { ProviderError } from '../../common/providers/provider-http-client';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { BRIDGE_RAIL, BridgeRail, PAYOUT_RAIL, PayoutRail, RailHoldings, RailLeg } from '../cross-border-rails';
import { LedgerService } from '../ledger';
import { InternationalIntentsRepository } from './international-intents.repository';
import { HoldingRail, OPEN_AT_RAILS, RAIL_ACCOUNTS } from './international-postings';
import { railDifferences, RailDifference, unansweredLeg, unknownLeg } from './international-reconciliation';

type AnyLeg = RailLeg<string>;

/** What `ledger:verify` reports of the rails: what each says it holds, and every difference with the ledger. */
export interface RailReconciliation {
  /** Per rail, its balances (major units) as it reports them; null when it did not answer. */
  balances: Record<HoldingRail, { currency: string; amount: number }[] | null>;
  /** How many intents were compared, and how many were left out because they changed within the grace period. */
  compared: number;
  recent: number;
  differences: RailDifference[];
}

/**
 * The ledger against the rails. Compared are the intents whose money the ledger has on its way,
 * at a rail or owed back by one, and every leg a rail says holds our money: each leg the ledger
 * must account for, and each place the ledger names must be what the rail says (see
 * `railDifferences`). A payment the ledger or a rail changed within the grace period is left out: a
 * callback on its way is not a difference. Paid intents are not asked about again: the payout rail
 * no longer holds their money, and the bridge rail delivered it onward.
 */
@Injectable()
export class RailReconciliationService {
  private readonly rails: Record<HoldingRail, { holdings(): Promise<RailHoldings<AnyLeg>>; get(reference: string): Promise<AnyLeg | null> }>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BRIDGE_RAIL) bridge: BridgeRail,
    @Inject(PAYOUT_RAIL) payouts: PayoutRail,
    private readonly ledger: LedgerService,
    private readonly repository: InternationalIntentsRepository,
  ) {
    const budget = () => ({ timeoutMs: this.config.providerTimeoutMs, retries: 1 });
    this.rails = {
      bridge_rail: { holdings: () => bridge.holdings(budget()), get: (reference) => bridge.getTransfer(reference, budget()) },
      payout_rail: { holdings: () => payouts.holdings(budget()), get: (reference) => payouts.getPayout(reference, budget()) },
    };
  }

  /** Undefined when the ledger never placed money at a rail: a platform without international payments needs no rail to verify its books. */
  async reconcile(now = Date.now()): Promise<RailReconciliation | undefined> {
    if (!(await this.ledger.everPostedTo(RAIL_ACCOUNTS))) return undefined;
    const names = Object.keys(this.rails) as HoldingRail[];
    const holdings = Object.fromEntries(
      await Promise.all(names.map(async (rail) => [rail, await this.ask(() => this.rails[rail].holdings())] as const)),
    ) as Record<HoldingRail, RailHoldings<AnyLeg> | undefined>;
    const differences: RailDifference[] = names.filter((rail) => !holdings[rail]).map((rail) => unansweredLeg(rail, null));

    const open = Object.fromEntries(names.map((rail) => [rail, new Map((holdings[rail]?.open ?? []).map((leg) => [leg.reference, leg]))])) as Record<
      HoldingRail,
      Map<string, AnyLeg>
    >;
    const references = [
      ...new Set([...(await this.ledger.sourcesOpenIn(OPEN_AT_RAILS, SOURCE_CURRENCY)), ...names.flatMap((rail) => [...open[rail].keys()])]),
    ].sort();
    const intents = new Map((await this.repository.findMany(references)).map((intent) => [intent.id, intent]));
    const positions = await this.ledger.platformPositionsOf(undefined, references, SOURCE_CURRENCY);
    const since = now - this.config.reconcileGraceMs;
    let compared = 0;
    let recent = 0;
    for (const reference of references) {
      const intent = intents.get(reference);
      if (!intent) {
        differences.push(...names.flatMap((rail) => (open[rail].has(reference) ? [unknownLeg(rail, open[rail].get(reference)!)] : [])));
        continue;
      }
      const legs = {} as Record<HoldingRail, AnyLeg | null>;
      for (const rail of names) {
        if (!holdings[rail]) continue;
        const leg = open[rail].get(reference) ?? (await this.ask(() => this.rails[rail].get(reference)));
        if (leg === undefined) differences.push(unansweredLeg(rail, reference));
        else legs[rail] = leg;
      }
      if (names.some((rail) => !(rail in legs))) continue;
      if ([intent.updatedAt, ...Object.values(legs).map((leg) => leg?.updatedAt)].some((at) => at !== undefined && at.getTime() > since)) {
        recent += 1;
        continue;
      }
      compared += 1;
      differences.push(...railDifferences(intent, positions.get(reference) ?? {}, legs));
    }
    const balances = Object.fromEntries(
      names.map((rail) => [rail, holdings[rail]?.balances.map(({ currency, amount }) => ({ currency, amount: toMajorUnits(amount, currency) })) ?? null]),
    ) as RailReconciliation['balances'];
    return { balances, compared, recent, differences };
  }

  /** A rail's answer; undefined when it gave none (down, timing out, or answering what cannot be read). */
  private async ask<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ProviderError) return undefined;
      throw err;
    }
  }
}
