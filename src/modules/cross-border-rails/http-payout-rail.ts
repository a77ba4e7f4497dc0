import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { parseProviderBody, ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { CallOptions } from '../../common/providers/provider-http-client';
import { RailResources, recipientBody, resourceBody, toReturn } from './http-rail-resources';
import type { RailHoldings } from './bridge-rail';
import { ForeignPayout, ForeignPayoutRequest, ForeignPayoutStatus, PayoutConfirmation, PayoutEvent, PayoutRail } from './payout-rail';

export const PAYOUT_RAIL_NAME = 'payout rail';

const PAYOUT_STATUSES: readonly ForeignPayoutStatus[] = ['processing', 'completed', 'failed', 'returned'];

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

class PayoutBody extends resourceBody(PAYOUT_STATUSES) {
  @Matches(/^[A-Z]{3}$/)
  currency: string;

  @IsInt()
  @Min(1)
  amount: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => ConfirmationBody)
  confirmation: ConfirmationBody | null;
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
  if (payout.status === 'completed' && confirmation === null)
    throw new ProviderError(`${PAYOUT_RAIL_NAME}: answered a completed payout without its confirmation`, true);
  return {
    id: payout.id,
    reference: payout.reference,
    status: payout.status,
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
    sent: { currency: payout.currency, amount: payout.amount },
    confirmation: payout.status === 'completed' ? confirmation : null,
    return: toReturn(payout.return),
    updatedAt: new Date(payout.updated_at),
  };
}

/** A refused return leaves the payout as it was. */
const PAYOUT_OUTCOMES = { 'payout.completed': 'completed', 'payout.failed': 'failed', 'payout.returned': 'returned', 'payout.return_refused': null } as const;

/** The payout rail over HTTP (the sandbox in development): amounts in minor units of the currency, our reference as the Idempotency-Key. */
export class HttpPayoutRail implements PayoutRail {
  private readonly payouts: RailResources<ForeignPayout>;

  constructor(private readonly client: ProviderHttpClient) {
    this.payouts = new RailResources(this.client, {
      rail: PAYOUT_RAIL_NAME,
      noun: 'payout',
      collection: 'payouts',
      read: (body) => toPayout(parseProviderBody(PAYOUT_RAIL_NAME, PayoutBody, body)),
    });
  }

  async createPayout(request: ForeignPayoutRequest, options: CallOptions): Promise<ForeignPayout> {
    const fields = {
      currency: request.currency,
      amount: request.amount,
      recipient: recipientBody(request.recipient),
      purpose_of_transfer: request.purposeOfTransfer,
      payment_reference: request.paymentReference,
      ordering_customer: { name: request.orderingCustomer.name, country: request.orderingCustomer.country },
    };
    return this.payouts.create(request.reference, fields, options);
  }

  async getPayout(reference: string, options: CallOptions): Promise<ForeignPayout | null> {
    return this.payouts.get(reference, options);
  }

  async returnPayout(reference: string, options: CallOptions): Promise<ForeignPayout> {
    return this.payouts.return(reference, options);
  }

  async holdings(options: CallOptions): Promise<RailHoldings<ForeignPayout>> {
    return this.payouts.holdings(options);
  }

  parseEvent(body: unknown): PayoutEvent {
    const event = this.payouts.parseEvent(body, PAYOUT_OUTCOMES);
    return event.type === 'other' ? event : { id: event.id, type: event.type, payout: event.resource };
  }
}
