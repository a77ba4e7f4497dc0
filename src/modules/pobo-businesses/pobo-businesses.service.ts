import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { AgreementsService } from '../agreements';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { WalletAddressPool } from '../wallets';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { listPage, Page } from '../../common/paging';
import { PoboBusinessDto } from './dto/pobo-business.response';
import { PoboBusinessEntity } from './pobo-business.entity';
import { mapPoboBusiness } from './pobo-business.mapper';
import { PoboBusinessNotFoundError } from './pobo-businesses.errors';
import { PoboBusinessesRepository, PoboBusinessRow, VaultOwnerRow } from './pobo-businesses.repository';
import { BusinessListQuery } from './dto/business-list.query';

@Injectable()
export class PoboBusinessesService {
  constructor(
    private readonly repository: PoboBusinessesRepository,
    private readonly agreements: AgreementsService,
    private readonly wallets: WalletAddressPool,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** One statement; with an Idempotency-Key, run in the transaction that stores its answer. */
  async create(merchantId: string, dto: CreatePoboBusinessDto, claim?: IdempotencyClaim): Promise<PoboBusinessDto> {
    const wallet = await this.wallets.next();
    const id = newId('pobo');
    const link = this.agreements.firstLink(id);
    const business = {
      id,
      merchantId,
      businessName: dto.businessName,
      email: dto.email,
      phoneNumber: dto.phoneNumber,
      country: dto.country,
      allowNairaCollection: dto.allowNairaCollection ?? false,
      walletIndex: wallet.index,
      evmAddress: wallet.evm,
      svmAddress: wallet.svm,
    };
    const insert = async (manager?: EntityManager) => mapPoboBusiness(await this.repository.insert(business, link.insert, manager), link.url);
    return claim ? this.idempotency.commit(claim, insert) : insert();
  }

  async get(merchantId: string, id: string): Promise<PoboBusinessDto> {
    return mapPoboBusiness(await this.findOwned(merchantId, id));
  }

  /**
   * The one ownership check for businesses, for every module: another merchant's business is
   * indistinguishable from one that does not exist.
   */
  async findOwned(merchantId: string, id: string): Promise<PoboBusinessRow> {
    const row = isId('pobo', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new PoboBusinessNotFoundError();
    return row;
  }

  /**
   * `findOwned` for a transaction that acts on what it reads (an international payment checks the
   * KYB status): the row is share-locked until `manager`'s transaction ends, so its status cannot
   * change in between, and a change in flight is waited for and seen.
   */
  async findOwnedForShare(manager: EntityManager, merchantId: string, id: string): Promise<PoboBusinessRow> {
    const row = isId('pobo', id) ? await this.repository.findOwnedForShare(manager, merchantId, id) : undefined;
    if (!row) throw new PoboBusinessNotFoundError();
    return row;
  }

  /** The names of those of `ids` that are the merchant's businesses, by id (for lists of other objects that name theirs). */
  namesOf(merchantId: string, ids: string[]): Promise<Map<string, string>> {
    return ids.length === 0 ? Promise.resolve(new Map<string, string>()) : this.repository.namesOf(merchantId, ids);
  }

  /**
   * A business by id alone, for the worker and the rails' callbacks, which act for no merchant;
   * never for a merchant's request. In `manager`'s transaction when given: a transaction that
   * already holds a connection must not wait for a second one from the pool.
   */
  findById(id: string, manager?: EntityManager): Promise<PoboBusinessEntity | null> {
    return this.repository.findById(id, manager);
  }

  /**
   * Businesses' vault addresses in the order they were created, `limit` after insertion order
   * `afterSeq` ('0' for the first): how the vault's worker learns of new vaults without reading
   * every business again.
   */
  vaultsAfter(afterSeq: string, limit: number): Promise<VaultOwnerRow[]> {
    return this.repository.vaultsAfter(afterSeq, limit);
  }

  /**
   * A page of the merchant's businesses, newest first. The cursor is the public id of the last
   * business of the previous page (as Stripe's `starting_after`): it names nothing the client
   * does not already have, where the internal insertion order would tell how many businesses
   * every merchant together has created. It only resolves among the merchant's own businesses.
   */
  list(merchantId: string, query: BusinessListQuery): Promise<Page<PoboBusinessDto>> {
    const filter = { kybStatus: query.kybStatus };
    return listPage(
      query,
      'pobo',
      (limit, after) => this.repository.list(merchantId, filter, limit, after),
      (row) => mapPoboBusiness(row),
      (item) => item.poboUserId,
    );
  }
}
