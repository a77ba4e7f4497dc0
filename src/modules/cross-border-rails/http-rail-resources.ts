import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { parseProviderBody, ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import { EventBody, getOrNull, IdBody, postByReference } from '../../common/providers/provider-resources';
import type { CallOptions } from '../../common/providers/provider-http-client';
import type { RailAmount, RailHoldings, RailReturn, Recipient } from './bridge-rail';

/**
 * What the two cross-border adapters share: each rail keeps one kind of resource (a transfer, a
 * payout) under our reference, and raises an event per outcome carrying the resource in that status.
 */

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

/** A return of the resource's money, as both rails answer it. */
class ReturnBody {
  @IsIn(['pending', 'completed', 'refused'])
  status: RailReturn['status'];

  @IsOptional()
  @IsInt()
  @Min(0)
  amount: number | null;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  failure_code: string | null;
}

/** The return as the adapters hand it on; null when none was asked for. */
export function toReturn(body: ReturnBody | null | undefined): RailReturn | null {
  return body ? { status: body.status, amount: body.amount ?? null, failureCode: body.failure_code ?? null } : null;
}

/**
 * The fields both rails answer of their resource, `status` among `statuses`; a rail's body class
 * extends it (`class TransferBody extends resourceBody(TRANSFER_STATUSES) {}`).
 */
export function resourceBody<S extends string>(statuses: readonly S[]) {
  class ResourceBody extends IdBody {
    @IsString()
    @IsNotEmpty()
    @MaxLength(255)
    reference: string;

    @IsIn(statuses)
    status: S;

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
    @Type(() => ReturnBody)
    return: ReturnBody | null;

    @IsISO8601({ strict: true })
    updated_at: string;
  }
  return ResourceBody;
}

/** An amount a rail answers: minor units of an ISO 4217 currency. */
class AmountBody {
  @Matches(/^[A-Z]{3}$/)
  currency: string;

  @IsInt()
  @Min(0)
  amount: number;
}

/** `GET /v1/balance`, all but the open resources (`open_<collection>`), read by the rail's own body class. */
class BalanceBody {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AmountBody)
  balances: AmountBody[];
}

export interface RailResourcesOptions<T> {
  /** The provider's name in errors, e.g. `bridge rail`. */
  rail: string;
  /** What the resource is called in errors, e.g. `transfer`. */
  noun: string;
  /** Created by POST `/v1/<collection>`, got by GET `/v1/<collection>/<reference>`; the open ones are `open_<collection>` of GET `/v1/balance`. */
  collection: string;
  /** Parses a resource out of a body (an answer, or an event's `data`); throws ProviderError when it is not one. */
  read: (body: unknown) => T;
}

export type OutcomeEvent<TType extends string, T> = { id: string; type: TType; resource: T } | { id: string; type: 'other'; name: string };

/** One kind of resource a cross-border rail keeps under our reference. */
export class RailResources<T extends { reference: string; status: string }> {
  private readonly path: string;

  constructor(
    private readonly client: ProviderHttpClient,
    private readonly options: RailResourcesOptions<T>,
  ) {
    this.path = `/v1/${options.collection}`;
  }

  /** Creates the resource under `reference` (the request's other fields in `fields`), or answers the one already created. */
  async create(reference: string, fields: Record<string, unknown>, options: CallOptions): Promise<T> {
    const body = await postByReference(this.client, this.path, reference, fields, options);
    return this.expectReference(reference, this.options.read(body));
  }

  /** Asks for the money of the resource under `reference` back; a retry answers the return as it is now. */
  async return(reference: string, options: CallOptions): Promise<T> {
    const { body } = await this.client.request({ method: 'POST', path: `${this.path}/${encodeURIComponent(reference)}/return`, ...options });
    return this.expectReference(reference, this.options.read(body));
  }

  /** The resource created under `reference`; null when there is none. */
  async get(reference: string, options: CallOptions): Promise<T | null> {
    return getOrNull(this.client, `${this.path}/${encodeURIComponent(reference)}`, options, (body) => this.expectReference(reference, this.options.read(body)));
  }

  /** What the rail holds for us: its balances and the resources holding them. */
  async holdings(options: CallOptions): Promise<RailHoldings<T>> {
    const { rail, collection } = this.options;
    const { body } = await this.client.request({ method: 'GET', path: '/v1/balance', ...options });
    const { balances } = parseProviderBody(rail, BalanceBody, body);
    const open = (body as Record<string, unknown>)[`open_${collection}`];
    if (!Array.isArray(open)) throw new ProviderError(`${rail}: answered its balance without open_${collection}`, true);
    return {
      balances: balances.map((b): RailAmount => ({ currency: b.currency, amount: b.amount })),
      open: open.map((resource) => this.options.read(resource)),
    };
  }

  /**
   * An event: one of `outcomes` (its type → the status its resource must be in, null when any), or
   * a type this version does not act on, as `other`.
   */
  parseEvent<TType extends string>(body: unknown, outcomes: Record<TType, T['status'] | null>): OutcomeEvent<TType, T> {
    const { rail, noun } = this.options;
    const event = parseProviderBody(rail, EventBody, body);
    if (!Object.hasOwn(outcomes, event.type)) return { id: event.id, type: 'other', name: event.type };
    const type = event.type as TType;
    const resource = this.options.read(event.data);
    if (outcomes[type] !== null && resource.status !== outcomes[type])
      throw new ProviderError(`${rail}: event ${type} carries a ${noun} ${resource.status}`, true);
    return { id: event.id, type, resource };
  }

  /** An answer about another resource than the one asked for cannot be acted on. */
  private expectReference(reference: string, resource: T): T {
    if (resource.reference !== reference) throw new ProviderError(`${this.options.rail}: answered with another ${this.options.noun} than ${reference}`, true);
    return resource;
  }
}
