import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { parseProviderBody, ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { CallOptions } from '../bank-rail';
import { isNotFound, recipientBody } from './http-bridge-rail';
import { ForeignPayout, ForeignPayoutRequest, ForeignPayoutStatus, PayoutConfirmation, PayoutEvent, PayoutRail } from './payout-rail';

export const PAYOUT_RAIL_NAME = 'payout rail';

const PAYOUT_STATUSES: readonly ForeignPayoutStatus[] = ['processing', 'completed', 'failed'];

class ConfirmationBody {
  @IsUUID()
  uetr: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(35)
  sender_reference: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(4)
  bank_operation_code: string;

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  value_date: string;

  @Matches(/^[A-Z]{3}$/)
  currency: string;

  @Matches(/^\d{1,15}(\.\d{1,3})?$/)
  amount: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  ordering_customer: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  account_with_institution: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  beneficiary_account: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  beneficiary_name: string;

  @IsString()
  @MaxLength(300)
  remittance_information: string;

  @IsIn(['OUR', 'SHA', 'BEN'])
  details_of_charges: string;
}

class PayoutBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  reference: string;

  @IsIn(PAYOUT_STATUSES)
  status: ForeignPayoutStatus;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  failure_code: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure_message: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => ConfirmationBody)
  confirmation: ConfirmationBody | null;
}

class EventBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @IsString()
  @IsNotEmpty()
  type: string;

  @IsObject()
  data: object;
}

const toConfirmation = (confirmation: ConfirmationBody): PayoutConfirmation => ({
  uetr: confirmation.uetr,
  senderReference: confirmation.sender_reference,
  bankOperationCode: confirmation.bank_operation_code,
  valueDate: confirmation.value_date,
  currency: confirmation.currency,
  amount: confirmation.amount,
  orderingCustomer: confirmation.ordering_customer,
  accountWithInstitution: confirmation.account_with_institution,
  beneficiaryAccount: confirmation.beneficiary_account,
  beneficiaryName: confirmation.beneficiary_name,
  remittanceInformation: confirmation.remittance_information,
  detailsOfCharges: confirmation.details_of_charges,
});

function toPayout(payout: PayoutBody): ForeignPayout {
  const confirmation = payout.confirmation ? toConfirmation(payout.confirmation) : null;
  // Every completed payout comes with its confirmation: one without it is not to be trusted.
  if (payout.status === 'completed' && confirmation === null) throw new ProviderError(`${PAYOUT_RAIL_NAME}: answered a completed payout without its confirmation`, true);
  return {
    id: payout.id,
    reference: payout.reference,
    status: payout.status,
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
    confirmation: payout.status === 'completed' ? confirmation : null,
  };
}

/** The payout rail over HTTP (the sandbox in development): amounts in minor units of the currency, our reference as the Idempotency-Key. */
export class HttpPayoutRail implements PayoutRail {
  constructor(private readonly client: ProviderHttpClient) {}

  async createPayout(request: ForeignPayoutRequest, options: CallOptions): Promise<ForeignPayout> {
    const { body } = await this.client.request({
      method: 'POST',
      path: '/v1/payouts',
      headers: { 'idempotency-key': request.reference },
      body: {
        reference: request.reference,
        currency: request.currency,
        amount: request.amount,
        recipient: recipientBody(request.recipient),
        purpose_of_transfer: request.purposeOfTransfer,
        payment_reference: request.paymentReference,
        ordering_customer: { name: request.orderingCustomer.name, country: request.orderingCustomer.country },
      },
      ...options,
    });
    return this.expectReference(request.reference, toPayout(parseProviderBody(PAYOUT_RAIL_NAME, PayoutBody, body)));
  }

  async getPayout(reference: string, options: CallOptions): Promise<ForeignPayout | null> {
    try {
      const { body } = await this.client.request({ method: 'GET', path: `/v1/payouts/${encodeURIComponent(reference)}`, ...options });
      return this.expectReference(reference, toPayout(parseProviderBody(PAYOUT_RAIL_NAME, PayoutBody, body)));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  parseEvent(body: unknown): PayoutEvent {
    const event = parseProviderBody(PAYOUT_RAIL_NAME, EventBody, body);
    switch (event.type) {
      case 'payout.completed':
      case 'payout.failed': {
        const payout = toPayout(parseProviderBody(PAYOUT_RAIL_NAME, PayoutBody, event.data));
        const expected = event.type === 'payout.completed' ? 'completed' : 'failed';
        if (payout.status !== expected) throw new ProviderError(`${PAYOUT_RAIL_NAME}: event ${event.type} carries a payout ${payout.status}`, true);
        return { id: event.id, type: event.type, payout };
      }
      default:
        return { id: event.id, type: 'other', name: event.type };
    }
  }

  /** An answer about another payout than the one asked for cannot be acted on. */
  private expectReference(reference: string, payout: ForeignPayout): ForeignPayout {
    if (payout.reference !== reference) throw new ProviderError(`${PAYOUT_RAIL_NAME}: answered with another payout than ${reference}`, true);
    return payout;
  }
}
