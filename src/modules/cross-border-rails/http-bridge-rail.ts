import { IsInt, Min } from 'class-validator';
import { parseProviderBody, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { CallOptions } from '../../common/providers/provider-http-client';
import { BridgeEvent, BridgeRail, BridgeTransfer, BridgeTransferRequest, BridgeTransferStatus, RailHoldings } from './bridge-rail';
import { RailResources, recipientBody, resourceBody, toReturn } from './http-rail-resources';
import { BRIDGE_RAIL_NAME } from './http-rate-provider';

const TRANSFER_STATUSES: readonly BridgeTransferStatus[] = ['in_review', 'pending', 'completed', 'rejected', 'returned'];

class TransferBody extends resourceBody(TRANSFER_STATUSES) {
  @IsInt()
  @Min(1)
  source_amount: number;
}

const toTransfer = (transfer: TransferBody): BridgeTransfer => ({
  id: transfer.id,
  reference: transfer.reference,
  status: transfer.status,
  failureCode: transfer.failure_code ?? null,
  failureMessage: transfer.failure_message ?? null,
  sent: { currency: 'NGN', amount: transfer.source_amount },
  return: toReturn(transfer.return),
  updatedAt: new Date(transfer.updated_at),
});

/** A refused return leaves the transfer as it was. */
const TRANSFER_OUTCOMES = {
  'transfer.completed': 'completed',
  'transfer.rejected': 'rejected',
  'transfer.returned': 'returned',
  'transfer.return_refused': null,
} as const;

/** The bridge rail over HTTP (the sandbox in development): NGN in kobo, destination amounts in minor units, our reference as the Idempotency-Key. */
export class HttpBridgeRail implements BridgeRail {
  private readonly transfers: RailResources<BridgeTransfer>;

  constructor(private readonly client: ProviderHttpClient) {
    this.transfers = new RailResources(this.client, {
      rail: BRIDGE_RAIL_NAME,
      noun: 'transfer',
      collection: 'transfers',
      read: (body) => toTransfer(parseProviderBody(BRIDGE_RAIL_NAME, TransferBody, body)),
    });
  }

  async createTransfer(request: BridgeTransferRequest, options: CallOptions): Promise<BridgeTransfer> {
    const fields = {
      route_type: request.routeType,
      source_amount: request.sourceAmount,
      destination_currency: request.destinationCurrency,
      destination_amount: request.destinationAmount,
      recipient: recipientBody(request.recipient),
    };
    return this.transfers.create(request.reference, fields, options);
  }

  async getTransfer(reference: string, options: CallOptions): Promise<BridgeTransfer | null> {
    return this.transfers.get(reference, options);
  }

  async returnTransfer(reference: string, options: CallOptions): Promise<BridgeTransfer> {
    return this.transfers.return(reference, options);
  }

  async holdings(options: CallOptions): Promise<RailHoldings<BridgeTransfer>> {
    return this.transfers.holdings(options);
  }

  parseEvent(body: unknown): BridgeEvent {
    const event = this.transfers.parseEvent(body, TRANSFER_OUTCOMES);
    return event.type === 'other' ? event : { id: event.id, type: event.type, transfer: event.resource };
  }
}
