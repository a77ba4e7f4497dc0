import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { parseProviderBody, ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { CallOptions } from '../bank-rail';
import { BridgeEvent, BridgeRail, BridgeTransfer, BridgeTransferRequest, BridgeTransferStatus, Recipient } from './bridge-rail';
import { BRIDGE_RAIL_NAME } from './http-rate-provider';

const TRANSFER_STATUSES: readonly BridgeTransferStatus[] = ['pending', 'completed', 'rejected'];

class TransferBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  reference: string;

  @IsIn(TRANSFER_STATUSES)
  status: BridgeTransferStatus;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  failure_code: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure_message: string | null;
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

/** The recipient as both cross-border rails take it. */
export function recipientBody(recipient: Recipient): Record<string, string | null> {
  return {
    full_name: recipient.fullName,
    email: recipient.email,
    country: recipient.country,
    bank_code_type: recipient.bankCodeType,
    bank_code: recipient.bankCode,
    account_number: recipient.accountNumber,
  };
}

/** A 404 from a lookup by reference: nothing was created under it. */
export const isNotFound = (err: unknown): boolean => err instanceof ProviderError && err.status === 404;

const toTransfer = (transfer: TransferBody): BridgeTransfer => ({
  id: transfer.id,
  reference: transfer.reference,
  status: transfer.status,
  failureCode: transfer.failure_code ?? null,
  failureMessage: transfer.failure_message ?? null,
});

/** The bridge rail over HTTP (the sandbox in development): NGN in kobo, destination amounts in minor units, our reference as the Idempotency-Key. */
export class HttpBridgeRail implements BridgeRail {
  constructor(private readonly client: ProviderHttpClient) {}

  async createTransfer(request: BridgeTransferRequest, options: CallOptions): Promise<BridgeTransfer> {
    const { body } = await this.client.request({
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'idempotency-key': request.reference },
      body: {
        reference: request.reference,
        route_type: request.routeType,
        source_amount: request.sourceAmount,
        destination_currency: request.destinationCurrency,
        destination_amount: request.destinationAmount,
        recipient: recipientBody(request.recipient),
      },
      ...options,
    });
    return this.expectReference(request.reference, toTransfer(parseProviderBody(BRIDGE_RAIL_NAME, TransferBody, body)));
  }

  async getTransfer(reference: string, options: CallOptions): Promise<BridgeTransfer | null> {
    try {
      const { body } = await this.client.request({ method: 'GET', path: `/v1/transfers/${encodeURIComponent(reference)}`, ...options });
      return this.expectReference(reference, toTransfer(parseProviderBody(BRIDGE_RAIL_NAME, TransferBody, body)));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  parseEvent(body: unknown): BridgeEvent {
    const event = parseProviderBody(BRIDGE_RAIL_NAME, EventBody, body);
    switch (event.type) {
      case 'transfer.completed':
      case 'transfer.rejected': {
        const transfer = toTransfer(parseProviderBody(BRIDGE_RAIL_NAME, TransferBody, event.data));
        const expected = event.type === 'transfer.completed' ? 'completed' : 'rejected';
        if (transfer.status !== expected) throw new ProviderError(`${BRIDGE_RAIL_NAME}: event ${event.type} carries a transfer ${transfer.status}`, true);
        return { id: event.id, type: event.type, transfer };
      }
      default:
        return { id: event.id, type: 'other', name: event.type };
    }
  }

  /** An answer about another transfer than the one asked for cannot be acted on. */
  private expectReference(reference: string, transfer: BridgeTransfer): BridgeTransfer {
    if (transfer.reference !== reference) throw new ProviderError(`${BRIDGE_RAIL_NAME}: answered with another transfer than ${reference}`, true);
    return transfer;
  }
}
