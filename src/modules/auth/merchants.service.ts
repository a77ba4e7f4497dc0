import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page, PageRequest } from '../../common/paging';
import type { DashboardRole } from '../../common/dashboard-roles';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { generateApiKey } from './api-key.codec';
import { ApiKeyPermission, grantableBy, normalizePermissions } from './api-key-permissions';
import { mapApiKey } from './api-key.mapper';
import { ApiKeyInactiveError, ApiKeyNotFoundError, MerchantNotFoundError, RoleForbiddenError } from './auth.errors';
import type { ApiKeyDto, IssuedApiKeyDto } from './dto/api-key.dto';
import { MerchantsRepository, NewApiKey } from './merchants.repository';
import { KeyMode, keyMode } from './test-mode.guard';

export interface Merchant {
  merchantId: string;
  name: string;
  mode: KeyMode;
}

export interface IssuedKey {
  merchantId: string;
  apiKeyId: string;
  /** Shown once, never stored. */
  apiKey: string;
}

/** Who makes a key from the dashboard, and the role that bounds what the key may do. */
export interface KeyCreator {
  userId: string;
  email: string;
  role: DashboardRole;
}

/** Merchants and their keys: the operator's commands, and the dashboard's sign-up and key management. */
@Injectable()
export class MerchantsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: MerchantsRepository,
  ) {}

  /** A merchant and its first key: one transaction. */
  async createMerchant(name: string): Promise<IssuedKey> {
    return this.dataSource.transaction(async (manager) => {
      const { merchantId } = await this.createInTransaction(manager, name);
      const { row, issued } = this.newKey(merchantId);
      await this.repository.insertKey(row, manager);
      return issued;
    });
  }

  /** A merchant without a key, in the caller's transaction: a dashboard sign-up creates its owner with it. */
  async createInTransaction(manager: EntityManager, name: string): Promise<Merchant> {
    const merchantId = newId('mer');
    await this.repository.insertMerchant(manager, { id: merchantId, name });
    return { merchantId, name, mode: keyMode(this.config) };
  }

  async find(merchantId: string): Promise<Merchant | undefined> {
    const merchant = await this.repository.findMerchant(merchantId);
    return merchant ? { merchantId: merchant.id, name: merchant.name, mode: keyMode(this.config) } : undefined;
  }

  async createKey(merchantId: string): Promise<IssuedKey> {
    if (!(await this.repository.exists(merchantId))) throw new MerchantNotFoundError();
    const { row, issued } = this.newKey(merchantId);
    await this.repository.insertKey(row);
    return issued;
  }

  /** Revocation is immediate in the database; API processes stop honouring the key within their cache TTL. */
  async revokeKey(apiKeyId: string): Promise<{ apiKeyId: string; revokedAt: Date }> {
    const revokedAt = await this.repository.revokeKey(apiKeyId, new Date());
    if (!revokedAt) throw new ApiKeyNotFoundError();
    return { apiKeyId, revokedAt };
  }

  keys(merchantId: string, query: PageRequest): Promise<Page<ApiKeyDto>> {
    return listPage(
      query,
      'key',
      (limit, after) => this.repository.keysPage(merchantId, limit, after),
      (row) => mapApiKey(row),
      (key) => key.apiKeyId,
    );
  }

  /**
   * A named key made from the dashboard, in the caller's transaction; its secret is in this answer
   * only. Its permissions default to all the creator's role may give, and may not exceed them
   * (403 `role_forbidden`).
   */
  async issueKey(
    manager: EntityManager,
    merchantId: string,
    name: string,
    creator: KeyCreator,
    permissions: readonly ApiKeyPermission[] = grantableBy(creator.role),
  ): Promise<IssuedApiKeyDto> {
    assertMayHandle(creator, permissions);
    const { row, issued } = this.newKey(merchantId);
    const key = { ...row, name, permissions: normalizePermissions(permissions), createdByUserId: creator.userId, createdByEmail: creator.email };
    await this.repository.insertKey(key, manager);
    const now = new Date();
    return { ...mapApiKey({ ...key, createdAt: now, lastUsedAt: null, expiresAt: null, revokedAt: null }), apiKey: issued.apiKey };
  }

  /**
   * A new key with the old one's name; the old one keeps working `expiresInHours` more (0: it
   * stops now). Only an active key rolls (409 `api_key_inactive`): one successor each.
   */
  async rollKey(manager: EntityManager, merchantId: string, apiKeyId: string, expiresInHours: number, creator: KeyCreator): Promise<IssuedApiKeyDto> {
    const old = await this.ownKey(manager, merchantId, apiKeyId);
    assertMayHandle(creator, old.permissions);
    if (old.revokedAt || old.expiresAt) throw new ApiKeyInactiveError();
    const now = Date.now();
    await this.repository.endKey(
      manager,
      old.id,
      expiresInHours === 0 ? { revokedAt: new Date(now) } : { expiresAt: new Date(now + expiresInHours * 3_600_000) },
    );
    return this.issueKey(manager, merchantId, old.name, creator, old.permissions);
  }

  /**
   * Revoked now (again: the first revocation stands), by a user whose role could have made it.
   * API processes stop honouring it within their cache TTL.
   */
  async revokeOwnKey(manager: EntityManager, merchantId: string, apiKeyId: string, revoker: KeyCreator): Promise<ApiKeyDto> {
    const key = await this.ownKey(manager, merchantId, apiKeyId);
    assertMayHandle(revoker, key.permissions);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.repository.endKey(manager, key.id, { revokedAt: key.revokedAt });
    }
    return mapApiKey(key);
  }

  private async ownKey(manager: EntityManager, merchantId: string, apiKeyId: string) {
    const key = isId('key', apiKeyId) ? await this.repository.lockKey(manager, merchantId, apiKeyId) : null;
    if (!key) throw new ApiKeyNotFoundError();
    return key;
  }

  private newKey(merchantId: string): { row: NewApiKey; issued: IssuedKey } {
    const generated = generateApiKey(this.config.apiKeyPrefix);
    const id = newId('key');
    return { row: { id, merchantId, keyHash: generated.hash, keyHint: generated.hint }, issued: { merchantId, apiKeyId: id, apiKey: generated.key } };
  }
}

/** A user may make, roll or revoke only a key whose permissions its role could give (a developer never one that moves money). */
function assertMayHandle(user: KeyCreator, permissions: readonly ApiKeyPermission[]): void {
  const grantable = grantableBy(user.role);
  if (!permissions.every((permission) => grantable.includes(permission))) throw new RoleForbiddenError();
}
