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

  async list(merchantId: string, query: ListPoboBusinessesQuery): Promise<PoboBusinessPage> {
    const limit = query.limit ?? MAX_PAGE_SIZE;
    const beforeSeq = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // One extra row tells whether a next page exists without a COUNT.
    const rows = await this.repository.listOwned(merchantId, limit + 1, beforeSeq);
    const page = rows.slice(0, limit);
    const items = page.map((row) => mapPoboBusiness(row));
    if (rows.length <= limit) return { items };
    const cursor = encodeCursor(page[page.length - 1].seq);
    return { items, nextUrl: `${this.config.publicBaseUrl}${POBO_USERS_PATH}?limit=${limit}&cursor=${cursor}` };
  }
}

function encodeCursor(seq: string): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^s([1-9]\d{0,17})$/.exec(decoded);
  if (!match) throw new InvalidCursorError();
  return match[1];
}
