import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AgreementsService } from '../agreements';
import { WalletAddressPool } from '../wallets';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { ListPoboBusinessesQuery, MAX_PAGE_SIZE } from './dto/list-pobo-businesses.query';
import { PoboBusinessDto } from './dto/pobo-business.response';
import { PoboBusinessEntity } from './pobo-business.entity';
import { mapPoboBusiness } from './pobo-business.mapper';
import { InvalidCursorError, PoboBusinessNotFoundError } from './pobo-businesses.errors';
import { AFTER_BUSINESS_PARAMS, PoboBusinessesRepository, PoboBusinessRow } from './pobo-businesses.repository';

export interface PoboBusinessPage {
  items: PoboBusinessDto[];
  /** Absolute URL of the next page, when there is one. */
  nextUrl?: string;
}

export const POBO_USERS_PATH = '/api/merchant/pobo/users';

@Injectable()
export class PoboBusinessesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: PoboBusinessesRepository,
    private readonly agreements: AgreementsService,
    private readonly wallets: WalletAddressPool,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async create(merchantId: string, dto: CreatePoboBusinessDto): Promise<PoboBusinessDto> {
    const wallet = await this.wallets.next();
    const id = newId('pobo');
    const link = this.agreements.firstLink(id, AFTER_BUSINESS_PARAMS);
    const row = await this.repository.insert(
      {
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
      },
      link.insert,
    );
    return mapPoboBusiness(row, link.url);
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

  /** A business by id alone, for the worker, which acts for no merchant. Never for a merchant's request. */
  findById(id: string): Promise<PoboBusinessEntity | null> {
    return this.dataSource.getRepository(PoboBusinessEntity).findOneBy({ id });
  }

  /**
   * A page of the merchant's businesses, newest first. The cursor is the public id of the last
   * business of the previous page (as Stripe's `starting_after`): it names nothing the client
   * does not already have, where the internal insertion order would tell how many businesses
   * every merchant together has created. It only resolves among the merchant's own businesses.
   */
  async list(merchantId: string, query: ListPoboBusinessesQuery): Promise<PoboBusinessPage> {
    const limit = query.limit ?? MAX_PAGE_SIZE;
    // One extra row tells whether a next page exists without a COUNT.
    let rows: PoboBusinessRow[] | undefined;
    if (query.cursor === undefined) rows = await this.repository.listOwned(merchantId, limit + 1);
    else if (isId('pobo', query.cursor)) rows = await this.repository.listOwnedAfter(merchantId, query.cursor, limit + 1);
    if (!rows) throw new InvalidCursorError();
    const page = rows.slice(0, limit);
    const items = page.map((row) => mapPoboBusiness(row));
    if (rows.length <= limit) return { items };
    const cursor = page[page.length - 1].id;
    return { items, nextUrl: `${this.config.publicBaseUrl}${POBO_USERS_PATH}?limit=${limit}&cursor=${cursor}` };
  }
}
