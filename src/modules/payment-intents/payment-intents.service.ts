import { Inject, Injectable } from '@nestjs/common';
import { violates } from '../../common/persistence/constraint-violation';
import { listPage, Page } from '../../common/paging';
import { isId, newId } from '../../common/ids/ids';
import { minorFromColumn, toMajorUnits, toMinorUnits } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { MerchantPrincipal } from '../auth';
import { BANK_RAIL, BankRail, callRailForRequest, testTransferKey, TEST_SENDER } from '../bank-rail';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService } from '../ledger';
import { CreatePaymentIntentDto, DEFAULT_EXPIRES_IN_MINUTES, FundPaymentIntentDto, PaymentIntentListQuery } from './dto/create-payment-intent.dto';
import { FundPaymentIntentResultDto, PaymentIntentDto } from './dto/payment-intent.response';
import { mapNewPaymentIntent, mapPaymentIntent, PaymentIntentRecord } from './payment-intent.mapper';
import { PaymentIntentStates } from './payment-intent-states.service';
import {
  MerchantReferenceInUseError,
  PaymentIntentAlreadyConfirmedError,
  PaymentIntentExpiredError,
  PaymentIntentNotFoundError,
  PaymentNotReceivedError,
} from './payment-intents.errors';
import { MERCHANT_REFERENCE_UNIQUE, PaymentIntentsRepository } from './payment-intents.repository';

export const CURRENCY = 'NGN';

/** The simulated sender of a test transfer when the merchant names none and the intent expects none. */

/** The merchant's side of Naira collections: create, read, confirm; and the test-mode transfer. */
@Injectable()
export class PaymentIntentsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    private readonly repository: PaymentIntentsRepository,
    private readonly states: PaymentIntentStates,
    private readonly idempotency: IdempotencyService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * The intent's id is fixed with the Idempotency-Key's claim, before the rail is asked for its
   * account (with that id as the rail's idempotency key): a retry after a crash gets the same
   * account. The intent, its event and the key's answer are then written in one statement.
   */
  async create(merchant: MerchantPrincipal, dto: CreatePaymentIntentDto, claim: IdempotencyClaim | undefined): Promise<PaymentIntentDto> {
    const id = claim?.resourceId ?? newId('pi');
    const amount = toMinorUnits(dto.amount, CURRENCY)!;
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + (dto.expiresInMinutes ?? DEFAULT_EXPIRES_IN_MINUTES) * 60_000);
    const account = await callRailForRequest(() =>
      this.rail.openVirtualAccount({ reference: id, accountName: merchant.merchantName, type: 'dynamic', amount, expiresAt }, this.requestBudget()),
    );
    const intent = {
      id,
      merchantId: merchant.merchantId,
      merchantReference: dto.merchantReference,
      amount,
      currency: CURRENCY,
      expectedSenderBankName: dto.expectedSenderBankName ?? null,
      expectedSenderAccountNumber: dto.expectedSenderAccountNumber ?? null,
      virtualAccountId: account.id,
      accountNumber: account.accountNumber,
      accountName: account.accountName,
      bankName: account.bankName,
      bankCode: account.bankCode,
      expiresAt,
      createdAt,
    };
    const created = mapNewPaymentIntent(intent);
    try {
      // The intent, its event and the key's answer: one statement.
      return await this.idempotency.commitWith(claim, created, (answered) =>
        this.repository.insert(intent, answered, (after) => this.states.createdPart(intent, created, after)),
      );
    } catch (err) {
      if (violates(err, MERCHANT_REFERENCE_UNIQUE)) throw new MerchantReferenceInUseError();
      throw err;
    }
  }

  async get(merchantId: string, id: string): Promise<PaymentIntentDto> {
    return mapPaymentIntent(await this.findOwned(merchantId, id));
  }

  /** A page of the merchant's intents, narrowed by the query's filters. */
  list(merchantId: string, query: PaymentIntentListQuery): Promise<Page<PaymentIntentDto>> {
    const filter = {
      status: query.status,
      merchantReference: query.merchantReference,
      after: query.createdAfter ? new Date(query.createdAfter) : undefined,
      before: query.createdBefore ? new Date(query.createdBefore) : undefined,
    };
    return listPage(
      query,
      'pi',
      (limit, after) => this.repository.list(merchantId, filter, limit, after),
      mapPaymentIntent,
      (item) => item.paymentIntentId,
    );
  }

  /** `funds_received → succeeded` and the merchant's balance credited, with the answer, in one transaction. */
  async confirm(merchantId: string, id: string, claim: IdempotencyClaim | undefined): Promise<PaymentIntentDto> {
    return this.idempotency.commit(claim, async (manager) => {
      const intent = isId('pi', id) ? await this.states.lock(manager, id) : null;
      if (!intent || intent.merchantId !== merchantId) throw new PaymentIntentNotFoundError();
      if (intent.status === 'succeeded') throw new PaymentIntentAlreadyConfirmedError();
      if (intent.status === 'expired' || (intent.status === 'awaiting_payment' && intent.expiresAt.getTime() <= Date.now()))
        throw new PaymentIntentExpiredError();
      if (intent.status === 'awaiting_payment') throw new PaymentNotReceivedError();
      await this.states.apply(manager, intent, 'succeeded', 'merchant_confirmed', { confirmedAt: new Date() });
      const amount = minorFromColumn(intent.amount);
      await this.ledger.post(manager, {
        type: 'payment_confirmed',
        sourceId: intent.id,
        currency: intent.currency,
        lines: [
          { account: { platform: 'unconfirmed_collections' }, amount: -amount },
          { account: { merchantId, kind: 'available' }, amount },
        ],
        balanceTransactions: [{ merchantId, type: 'payment', amount }],
      });
      return mapPaymentIntent(await this.repository.read(manager, id));
    });
  }

  /**
   * Test mode: the sandbox rail sends a transfer into the intent's account, and tells us as a real
   * rail would (a signed callback). The rail's idempotency key is derived from the merchant's, so
   * a retried request never sends a second transfer.
   */
  async fund(merchantId: string, id: string, dto: FundPaymentIntentDto, claim: IdempotencyClaim | undefined): Promise<FundPaymentIntentResultDto> {
    const intent = await this.findOwned(merchantId, id);
    // `null` is absent, as validation (IsOptional) reads it.
    const amount = dto.amount == null ? minorFromColumn(intent.amount) : toMinorUnits(dto.amount, CURRENCY)!;
    const transfer = await callRailForRequest(() =>
      this.rail.simulateInboundTransfer(
        {
          idempotencyKey: testTransferKey(claim),
          accountNumber: intent.account_number,
          amount,
          senderBankName: dto.senderBankName ?? intent.expected_sender_bank_name ?? TEST_SENDER.bankName,
          senderAccountNumber: dto.senderAccountNumber ?? intent.expected_sender_account_number ?? TEST_SENDER.accountNumber,
        },
        this.requestBudget(),
      ),
    );
    return this.idempotency.commit(claim, () =>
      Promise.resolve({ transferId: transfer.id, paymentIntentId: intent.id, amount: toMajorUnits(amount, CURRENCY) }),
    );
  }

  private async findOwned(merchantId: string, id: string): Promise<PaymentIntentRecord> {
    const row = isId('pi', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new PaymentIntentNotFoundError();
    return row;
  }

  /** A merchant is waiting: one retry, within the Idempotency-Key's lock. */
  private requestBudget() {
    return { timeoutMs: this.config.providerTimeoutMs, retries: 1 };
  }
}
