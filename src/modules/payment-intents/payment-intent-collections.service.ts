import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { minorFromColumn } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, JobQueues, Outbox } from '../../jobs';
import { BANK_RAIL, BankRail, RailTransfer } from '../bank-rail';
import { LedgerService, transferReturn } from '../ledger';
import { ReturnReason } from './inbound-payment.entity';
import { PaymentIntentEntity } from './payment-intent.entity';
import { PaymentIntentStates } from './payment-intent-states.service';
import { PAYMENT_INTENTS_JOBS } from './payment-intents.jobs';
import { PaymentIntentsRepository } from './payment-intents.repository';

const BATCH = 500;

/** Why a transfer into an intent's account is sent back, or null when it funds the intent. */
export function returnReasonFor(
  intent: Pick<PaymentIntentEntity, 'status' | 'amount' | 'expiresAt' | 'expectedSenderBankName' | 'expectedSenderAccountNumber'>,
  transfer: Pick<RailTransfer, 'amount' | 'senderBankName' | 'senderAccountNumber'>,
  now: Date,
): ReturnReason | null {
  if (intent.status === 'funds_received' || intent.status === 'succeeded') return 'already_funded';
  if (intent.status === 'expired' || intent.expiresAt.getTime() <= now.getTime()) return 'intent_expired';
  if (transfer.amount !== minorFromColumn(intent.amount)) return 'amount_mismatch';
  if (intent.expectedSenderAccountNumber !== null && transfer.senderAccountNumber !== intent.expectedSenderAccountNumber) return 'sender_mismatch';
  if (intent.expectedSenderBankName !== null && transfer.senderBankName.trim().toLowerCase() !== intent.expectedSenderBankName.trim().toLowerCase())
    return 'sender_mismatch';
  return null;
}

/**
 * The rail's side of collections: transfers received into intents' accounts (matched exactly, or
 * recorded and sent back), returns, and expiry.
 */
@Injectable()
export class PaymentIntentCollectionsService {
  private readonly logger = new Logger(PaymentIntentCollectionsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BANK_RAIL) private readonly rail: BankRail,
    private readonly repository: PaymentIntentsRepository,
    private readonly states: PaymentIntentStates,
    private readonly ledger: LedgerService,
    private readonly outbox: Outbox,
    private readonly queues: JobQueues,
  ) {}

  /**
   * A transfer arrived, in the caller's transaction (the one that records the rail's event). One
   * of exactly the intent's amount, from the expected sender while it awaits payment, funds it;
   * any other is recorded as returned and its return queued. A transfer already recorded changes
   * nothing.
   */
  async onTransferReceived(manager: EntityManager, transfer: RailTransfer): Promise<void> {
    const id = await this.repository.idByAccountNumber(manager, transfer.accountNumber);
    if (!id) {
      this.logger.warn(`transfer ${transfer.id} into ${transfer.accountNumber}, which is no payment intent's or business's account; left to operations`);
      return;
    }
    const intent = (await this.states.lock(manager, id))!;
    const now = new Date();
    const reason = returnReasonFor(intent, transfer, now);
    const paymentId = newId('pay');
    const recorded = await this.repository.insertPayment(manager, {
      id: paymentId,
      paymentIntentId: intent.id,
      railTransferId: transfer.id,
      amount: transfer.amount,
      senderBankName: transfer.senderBankName,
      senderAccountNumber: transfer.senderAccountNumber,
      status: reason === null ? 'accepted' : 'returned',
      returnReason: reason,
      receivedAt: transfer.receivedAt,
    });
    if (!recorded) return;
    if (reason === 'intent_expired' && intent.status === 'awaiting_payment') await this.states.apply(manager, intent, 'expired', 'expired');
    if (reason === null) {
      await this.states.apply(manager, intent, 'funds_received', 'transfer_received', { fundedAt: now, amountReceived: String(transfer.amount) });
      await this.ledger.post(manager, {
        type: 'payment_received',
        sourceId: paymentId,
        currency: intent.currency,
        lines: [
          { account: { platform: 'bank_rail' }, amount: -transfer.amount },
          { account: { platform: 'unconfirmed_collections' }, amount: transfer.amount },
        ],
      });
      return;
    }
    await this.states.emit(manager, intent, ['payment_intent.payment_returned']);
    await this.ledger.post(manager, transferReturn.held('payment_received_for_return', paymentId, intent.currency, transfer.amount));
    await this.outbox.enqueue(manager, PAYMENT_INTENTS_JOBS.returnPayment, { paymentId });
  }

  /**
   * Sends a returned payment back through the rail, which returns a transfer at most once; the
   * return is recorded (and the money leaves the ledger) once, however often this runs.
   */
  @JobHandler(PAYMENT_INTENTS_JOBS.returnPayment)
  async returnPayment({ paymentId }: { paymentId: string }): Promise<void> {
    const payment = await this.repository.pendingReturn(paymentId);
    if (!payment) return;
    const sent = await this.rail.returnTransfer(payment.rail_transfer_id, payment.return_reason, { timeoutMs: this.config.providerTimeoutMs, retries: 1 });
    const amount = minorFromColumn(payment.amount);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.markReturned(manager, paymentId, sent.id))) return;
      await this.ledger.post(manager, transferReturn.sent('payment_returned', paymentId, 'NGN', amount));
    });
  }

  @JobHandler(PAYMENT_INTENTS_JOBS.expire)
  async expire(): Promise<void> {
    for (const id of await this.repository.expiredAwaiting(BATCH)) {
      await this.dataSource.transaction(async (manager) => {
        const intent = await this.states.lock(manager, id);
        if (intent?.status === 'awaiting_payment' && intent.expiresAt.getTime() <= Date.now()) await this.states.apply(manager, intent, 'expired', 'expired');
      });
    }
  }

  @JobHandler(PAYMENT_INTENTS_JOBS.resumeReturns)
  async resumeReturns(): Promise<void> {
    for (const paymentId of await this.repository.returnsPending(BATCH)) await this.queues.ensure(PAYMENT_INTENTS_JOBS.returnPayment, { paymentId });
  }
}
