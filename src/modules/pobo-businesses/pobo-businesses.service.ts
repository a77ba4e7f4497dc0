import { Inject, Injectable } from '@nestjs/common';
import { isId, newId } from '../../common/ids/ids';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { AgreementsService } from '../agreements/agreements.service';
import { WalletAddressPool } from '../wallets/wallet-address.pool';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { ListPoboBusinessesQuery, MAX_PAGE_SIZE } from './dto/list-pobo-businesses.query';
import { PoboBusinessDto } from './dto/pobo-business.response';
import { mapPoboBusiness } from './pobo-business.mapper';
import { InvalidCursorError, PoboBusinessNotFoundError } from './pobo-businesses.errors';
import { PoboBusinessesRepository } from './pobo-businesses.repository';

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
  ) {}

  async create(merchantId: string, dto: CreatePoboBusinessDto): Promise<PoboBusinessDto> {
    const wallet = await this.wallets.next();
    const id = newId('pobo');
    const link = this.agreements.newLink(id);
    const row = await this.repository.insertWithLink(
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
      link.row,
    );
    return mapPoboBusiness(row, link.url);
  }

  async get(merchantId: string, id: string): Promise<PoboBusinessDto> {
    const row = isId('pobo', id) ? await this.repository.findOwned(merchantId, id) : undefined;
    if (!row) throw new PoboBusinessNotFoundError();
    return mapPoboBusiness(row);
  }

  /** Voids the business's earlier links and answers with a fresh one (409 once accepted). */
  async issueAgreementLink(merchantId: string, id: string): Promise<PoboBusinessDto> {
    const issued = isId('pobo', id) ? await this.agreements.reissueLink(merchantId, id) : null;
    if (!issued) throw new PoboBusinessNotFoundError();
    return mapPoboBusiness(issued.business, issued.url);
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
