import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { violates } from '../../common/persistence/constraint-violation';
import { isValidNuban } from '../../common/banking/nuban';
import { KeyedSerializer } from '../../common/concurrency/keyed-serializer';
import { listPage, Page } from '../../common/paging';
import { isId, newId } from '../../common/ids/ids';
import { toMinorUnits } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService } from '../ledger';
import { BANKS } from './banks';
import { CreateWithdrawalDto } from './dto/create-withdrawal.dto';
import { BankDto, WithdrawalDto } from './dto/withdrawal.response';
import { mapWithdrawal } from './withdrawal.mapper';
import { WithdrawalPayoutsService } from './withdrawal-payouts.service';
import { WithdrawalStates } from './withdrawal-states.service';
import { AccountNumberInvalidError, WithdrawalNotFoundError, WithdrawalReferenceInUseError } from './withdrawals.errors';
import { WITHDRAWAL_REFERENCE_UNIQUE, WithdrawalsRepository } from './withdrawals.repository';
import { WithdrawalListQuery } from './dto/withdrawal-list.query';

const CURRENCY = 'NGN';

@Injectable()
export class WithdrawalsService {
  /** Reservations of one merchant lock its balance row: they queue here rather than on pooled connections. */
  private readonly reservations = new KeyedSerializer();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WithdrawalsRepository,
    private readonly payouts: WithdrawalPayoutsService,
    private readonly states: WithdrawalStates,
    private readonly idempotency: IdempotencyService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * Three steps, each resumable: (1) the withdrawal (its id fixed with the key's claim) and its
   * reservation are written with the key's recovery point `funds_reserved` in one transaction (or
   * nothing, for insufficient funds); (2) the payout goes to the rail under the withdrawal's id;
   * (3) its outcome and the answer commit together. A retry that takes over after a crash starts
   * after the last committed step.
   */
  async create(merchantId: string, dto: CreateWithdrawalDto, claim: IdempotencyClaim | undefined): Promise<WithdrawalDto> {
    if (!isValidNuban(dto.bankCode, dto.accountNumber)) throw new AccountNumberInvalidError();
    const id = claim?.resourceId ?? newId('wd');
    if (claim?.recoveryPoint !== 'funds_reserved') await this.reservations.run(merchantId, () => this.reserve(id, merchantId, dto, claim));
    const attempt = await this.payouts.send(id, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
    return this.idempotency.commit(claim, async (manager) => {
      await this.payouts.record(manager, id, attempt);
      const withdrawal = (await this.repository.findById(id, manager))!;
      return mapWithdrawal(withdrawal);
    });
  }

  async get(merchantId: string, id: string): Promise<WithdrawalDto> {
    const row = isId('wd', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new WithdrawalNotFoundError();
    return mapWithdrawal(row);
  }

  list(merchantId: string, query: WithdrawalListQuery): Promise<Page<WithdrawalDto>> {
    const filter = { status: query.status };
    return listPage(
      query,
      'wd',
      (limit, after) => this.repository.list(merchantId, filter, limit, after),
      mapWithdrawal,
      (item) => item.withdrawalId,
    );
  }

  banks(): BankDto[] {
    return BANKS.map((bank) => ({ ...bank }));
  }

  /** Step 1: `amount + fee` leaves the available balance, atomically with the withdrawal and the recovery point. */
  private async reserve(id: string, merchantId: string, dto: CreateWithdrawalDto, claim: IdempotencyClaim | undefined): Promise<void> {
    const amount = toMinorUnits(dto.amount, CURRENCY)!;
    const fee = this.config.withdrawalFeeMinor;
    try {
      await this.dataSource.transaction(async (manager) => {
        const now = new Date();
        const withdrawal = {
          id,
          merchantId,
          merchantReference: dto.merchantReference,
          amount: String(amount),
          fee: String(fee),
          currency: CURRENCY,
          status: 'pending' as const,
          bankCode: dto.bankCode,
          accountNumber: dto.accountNumber,
          accountName: dto.accountName,
          narration: dto.narration ?? null,
          failureCode: null,
          failureMessage: null,
          createdAt: now,
          updatedAt: now,
          completedAt: null,
        };
        await this.repository.insert(manager, withdrawal);
        await this.states.emit(manager, withdrawal, ['withdrawal.created']);
        // Before the posting, which locks the merchant's balance until the commit: one write less under that lock.
        await this.idempotency.checkpoint(claim, 'funds_reserved', manager);
        await this.ledger.post(manager, {
          type: 'withdrawal_reserved',
          sourceId: id,
          currency: CURRENCY,
          lines: [
            { account: { merchantId, kind: 'available' }, amount: -(amount + fee) },
            { account: { merchantId, kind: 'reserved' }, amount: amount + fee },
          ],
          balanceTransactions: [
            { merchantId, type: 'withdrawal', amount: -amount },
            { merchantId, type: 'fee', amount: -fee },
          ],
        });
      });
    } catch (err) {
      if (violates(err, WITHDRAWAL_REFERENCE_UNIQUE)) throw new WithdrawalReferenceInUseError();
      throw err;
    }
  }
}
