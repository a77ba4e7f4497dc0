import type { CallOptions } from '../../common/providers/provider-http-client';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { parseProviderBody, ProviderHttpClient } from '../../common/providers/provider-http-client';
import { EventBody, IdBody, postByReference } from '../../common/providers/provider-resources';
import { BankRail, InboundTransferRequest, PayoutRequest, RailEvent, RailPayout, VirtualAccount, VirtualAccountRequest } from './bank-rail';

const NAME = 'bank rail';

class VirtualAccountBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @Matches(/^\d{10}$/)
  account_number: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  account_name: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  bank_name: string;

  @Matches(/^\d{3}$/)
  bank_code: string;

  @IsIn(['active'])
  status: string;
}

class TransferBody extends IdBody {
  @Matches(/^\d{10}$/)
  account_number: string;

  @IsInt()
  @Min(1)
  amount: number;

  @IsString()
  @MaxLength(200)
  sender_bank_name: string;

  @IsString()
  @MaxLength(20)
  sender_account_number: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  sender_name: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  narration: string | null;

  @IsISO8601()
  received_at: string;
}

class ReturnBody extends IdBody {
  @IsString()
  @IsNotEmpty()
  transfer_id: string;
}

class PayoutBody extends IdBody {
  @IsString()
  @IsNotEmpty()
  reference: string;

  @IsIn(['processing', 'succeeded', 'failed', 'returned'])
  status: RailPayout['status'];

  @IsOptional()
  @IsString()
  @MaxLength(100)
  failure_code: string | null;
}

class EventPageBody {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EventBody)
  events: EventBody[];

  @IsBoolean()
  has_more: boolean;
}

const toPayout = (payout: PayoutBody): RailPayout => ({
  id: payout.id,
  reference: payout.reference,
  status: payout.status,
  failureCode: payout.failure_code ?? null,
});

/** The bank rail over HTTP (the sandbox in development): amounts in kobo, every POST with an Idempotency-Key. */
export class HttpBankRail implements BankRail {
  constructor(private readonly client: ProviderHttpClient) {}

  async openVirtualAccount(request: VirtualAccountRequest, options: CallOptions): Promise<VirtualAccount> {
    const fields = {
      account_name: request.accountName,
      currency: 'NGN',
      type: request.type ?? 'static',
      ...(request.amount === undefined ? {} : { amount: request.amount }),
      ...(request.expiresAt === undefined ? {} : { expires_at: request.expiresAt.toISOString() }),
    };
    const body = await postByReference(this.client, '/v1/virtual-accounts', request.reference, fields, options);
    const account = parseProviderBody(NAME, VirtualAccountBody, body);
    return {
      id: account.id,
      accountNumber: account.account_number,
      accountName: account.account_name,
      bankName: account.bank_name,
      bankCode: account.bank_code,
    };
  }

  async simulateInboundTransfer(request: InboundTransferRequest, options: CallOptions): Promise<{ id: string }> {
    const { body } = await this.client.request({
      method: 'POST',
      path: '/v1/simulations/inbound-transfers',
      headers: { 'idempotency-key': request.idempotencyKey },
      body: {
        account_number: request.accountNumber,
        amount: request.amount,
        sender_bank_name: request.senderBankName,
        sender_account_number: request.senderAccountNumber,
        sender_name: request.senderName ?? null,
        narration: request.narration ?? null,
      },
      ...options,
    });
    return { id: parseProviderBody(NAME, IdBody, body).id };
  }

  async returnTransfer(transferId: string, reason: string, options: CallOptions): Promise<{ id: string }> {
    const { body } = await this.client.request({
      method: 'POST',
      path: `/v1/transfers/${encodeURIComponent(transferId)}/return`,
      headers: { 'idempotency-key': `return-${transferId}` },
      body: { reason },
      ...options,
    });
    return { id: parseProviderBody(NAME, ReturnBody, body).id };
  }

  async sendPayout(request: PayoutRequest, options: CallOptions): Promise<RailPayout> {
    const fields = {
      amount: request.amount,
      currency: 'NGN',
      bank_code: request.bankCode,
      account_number: request.accountNumber,
      account_name: request.accountName,
      narration: request.narration,
    };
    const body = await postByReference(this.client, '/v1/payouts', request.reference, fields, options);
    return toPayout(parseProviderBody(NAME, PayoutBody, body));
  }

  async events(after: string | undefined, limit: number, options: CallOptions): Promise<{ events: RailEvent[]; hasMore: boolean }> {
    const query = new URLSearchParams({ limit: String(limit), ...(after === undefined ? {} : { after }) });
    const { body } = await this.client.request({ method: 'GET', path: `/v1/events?${query.toString()}`, ...options });
    const page = parseProviderBody(NAME, EventPageBody, body);
    return { events: page.events.map((event) => this.toEvent(event)), hasMore: page.has_more };
  }

  parseEvent(body: unknown): RailEvent {
    return this.toEvent(parseProviderBody(NAME, EventBody, body));
  }

  private toEvent(event: EventBody): RailEvent {
    switch (event.type) {
      case 'transfer.received': {
        const t = parseProviderBody(NAME, TransferBody, event.data);
        return {
          id: event.id,
          type: event.type,
          transfer: {
            id: t.id,
            accountNumber: t.account_number,
            amount: t.amount,
            senderName: t.sender_name ?? null,
            senderBankName: t.sender_bank_name,
            senderAccountNumber: t.sender_account_number,
            narration: t.narration ?? null,
            receivedAt: new Date(t.received_at),
          },
        };
      }
      case 'transfer.returned':
        return { id: event.id, type: event.type, transferId: parseProviderBody(NAME, ReturnBody, event.data).transfer_id };
      case 'payout.succeeded':
      case 'payout.failed':
      case 'payout.returned':
        return { id: event.id, type: event.type, payout: toPayout(parseProviderBody(NAME, PayoutBody, event.data)) };
      default:
        return { id: event.id, type: 'other', name: event.type };
    }
  }
}
