import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, PageRequest } from '../../common/paging';
import { AuditLog, auditActor } from '../audit';
import type { ApiKeyDto, CreateApiKeyDto, DashboardPrincipal, IssuedApiKeyDto } from '../auth';
import { MerchantsService } from '../auth';
import { ClientOf } from './dashboard-sessions.service';

/** The dashboard's management of the merchant's API keys (the auth module owns them): each change with its audit entry. */
@Injectable()
export class ApiKeysSetup {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly merchants: MerchantsService,
    private readonly audit: AuditLog,
  ) {}

  list(merchantId: string, query: PageRequest): Promise<Page<ApiKeyDto>> {
    return this.merchants.keys(merchantId, query);
  }

  create(principal: DashboardPrincipal, dto: CreateApiKeyDto, client: ClientOf): Promise<IssuedApiKeyDto> {
    return this.dataSource.transaction(async (manager) => {
      const key = await this.merchants.issueKey(manager, principal.merchantId, dto.name, principal, dto.permissions);
      await this.audit.record(manager, auditActor(principal, client.ip), {
        action: 'api_key.created',
        objectId: key.apiKeyId,
        details: { name: dto.name, permissions: key.permissions.join(' ') },
      });
      return key;
    });
  }

  roll(principal: DashboardPrincipal, apiKeyId: string, expiresInHours: number, client: ClientOf): Promise<IssuedApiKeyDto> {
    return this.dataSource.transaction(async (manager) => {
      const key = await this.merchants.rollKey(manager, principal.merchantId, apiKeyId, expiresInHours, principal);
      await this.audit.record(manager, auditActor(principal, client.ip), {
        action: 'api_key.rolled',
        objectId: apiKeyId,
        details: { newApiKeyId: key.apiKeyId, expiresInHours },
      });
      return key;
    });
  }

  revoke(principal: DashboardPrincipal, apiKeyId: string, client: ClientOf): Promise<ApiKeyDto> {
    return this.dataSource.transaction(async (manager) => {
      const key = await this.merchants.revokeOwnKey(manager, principal.merchantId, apiKeyId, principal);
      await this.audit.record(manager, auditActor(principal, client.ip), { action: 'api_key.revoked', objectId: apiKeyId });
      return key;
    });
  }
}
