import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box';
import { isId, newId } from '../../common/ids/ids';
import { listPage, Page, PageRequest } from '../../common/paging';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler, Outbox } from '../../jobs';
import { TeamService } from '../accounts';
import { AuditAction, AuditLog, auditActor } from '../audit';
import type { DashboardPrincipal } from '../auth';
import { MAILER, Mailer } from '../mail';
import type {
  CreateWebhookEndpointDto,
  RecoveredDto,
  UpdateWebhookEndpointDto,
  WebhookAttemptDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { endpointOrNotFound, EventNotFoundError, WebhookEndpointLimitError } from './events.errors';
import { EVENTS_JOBS } from './events.jobs';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { mapWebhookAttempt, mapWebhookEndpoint } from './webhook-endpoint.mapper';
import { WebhookUrlPolicy } from './webhook-url-policy';
import { WebhookEndpointRecord, WebhooksRepository } from './webhooks.repository';

/** Endpoints one merchant may have. */
export const MAX_WEBHOOK_ENDPOINTS = 16;
/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** Who made a change from the dashboard, for the audit log. */
export interface Changer {
  principal: DashboardPrincipal;
  ip: string;
}

/** The sealing of endpoints' signing secrets, shared by the setup and the dispatcher. */
export function webhookSecrets(config: Pick<AppConfig, 'linkSigningSecret'>): SecretBox {
  return new SecretBox(config.linkSigningSecret, 'webhook-endpoint-secret');
}

/**
 * The merchant's webhook endpoints, managed from the dashboard: each change in a transaction
 * with its audit entry. A secret is shown when it is made (create, rotate) and on an owner's
 * explicit reveal, never in a list or a read.
 */
@Injectable()
export class WebhookEndpoints {
  private readonly secrets: SecretBox;
  private readonly policy: WebhookUrlPolicy;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhooksRepository,
    private readonly eventsRepository: EventsRepository,
    private readonly events: EventsService,
    private readonly audit: AuditLog,
    private readonly outbox: Outbox,
    private readonly team: TeamService,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {
    this.secrets = webhookSecrets(config);
    this.policy = new WebhookUrlPolicy(config);
  }

  list(merchantId: string, query: PageRequest): Promise<Page<WebhookEndpointDto>> {
    return listPage(
      query,
      'we',
      (limit, after) => this.repository.page(merchantId, limit, after),
      mapWebhookEndpoint,
      (endpoint) => endpoint.webhookEndpointId,
    );
  }

  async get(merchantId: string, id: string): Promise<WebhookEndpointDto> {
    return mapWebhookEndpoint(await this.findOwned(merchantId, id));
  }

  async create(by: Changer, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecretDto> {
    await this.policy.check(dto.url);
    const secret = newSecret();
    const id = newId('we');
    return this.change(by, { action: 'webhook_endpoint.created', objectId: id, details: { url: dto.url } }, async (manager) => {
      if ((await this.repository.countForCreate(manager, by.principal.merchantId)) >= MAX_WEBHOOK_ENDPOINTS)
        throw new WebhookEndpointLimitError(MAX_WEBHOOK_ENDPOINTS);
      const endpoint = {
        id,
        merchantId: by.principal.merchantId,
        url: dto.url,
        enabledEvents: unique(dto.enabledEvents),
        description: dto.description ?? null,
      };
      await this.repository.insert(manager, { ...endpoint, sealedSecret: this.secrets.seal(secret) });
      return { ...(await this.read(manager, by.principal.merchantId, id)), secret };
    });
  }

  async update(by: Changer, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    if (dto.url !== undefined) await this.policy.check(dto.url);
    const changed = Object.keys(dto).filter((key) => (dto as Record<string, unknown>)[key] !== undefined);
    return this.change(
      by,
      { action: 'webhook_endpoint.updated', objectId: id, details: { changed: changed.join(' '), url: dto.url ?? null } },
      async (manager) => {
        await this.lockOwned(manager, by.principal.merchantId, id);
        await this.repository.update(manager, id, {
          url: dto.url,
          enabledEvents: dto.enabledEvents && unique(dto.enabledEvents),
          ...(dto.description !== undefined && { description: dto.description }),
          disabled: dto.disabled,
        });
        return this.read(manager, by.principal.merchantId, id);
      },
    );
  }

  remove(by: Changer, id: string): Promise<WebhookEndpointDto> {
    return this.change(by, { action: 'webhook_endpoint.deleted', objectId: id }, async (manager) => {
      const endpoint = mapWebhookEndpoint(await this.lockOwned(manager, by.principal.merchantId, id));
      await this.repository.remove(manager, id);
      return endpoint;
    });
  }

  /** A new secret; the old one keeps signing beside it for `SECRET_OVERLAP_MS`. */
  rotate(by: Changer, id: string): Promise<WebhookEndpointWithSecretDto> {
    const secret = newSecret();
    return this.change(by, { action: 'webhook_endpoint.secret_rotated', objectId: id }, async (manager) => {
      await this.lockOwned(manager, by.principal.merchantId, id);
      await this.repository.rotate(manager, id, this.secrets.seal(secret), new Date(Date.now() + SECRET_OVERLAP_MS));
      return { ...(await this.read(manager, by.principal.merchantId, id)), secret };
    });
  }

  /** The current secret, for an owner; the reveal itself is audited. */
  reveal(by: Changer, id: string): Promise<WebhookEndpointWithSecretDto> {
    return this.change(by, { action: 'webhook_endpoint.secret_revealed', objectId: id }, async (manager) => {
      const endpoint = await this.lockOwned(manager, by.principal.merchantId, id);
      return { ...mapWebhookEndpoint(endpoint), secret: this.secrets.open(endpoint.sealedSecret) };
    });
  }

  /** Sends the endpoint, and it alone, a `webhook_endpoint.test` event about itself. */
  test(by: Changer, id: string): Promise<WebhookEndpointDto> {
    return this.change(by, { action: 'webhook_endpoint.test_sent', objectId: id }, async (manager) => {
      const endpoint = mapWebhookEndpoint(await this.lockOwned(manager, by.principal.merchantId, id));
      await this.events.recordTest(manager, by.principal.merchantId, endpoint);
      return endpoint;
    });
  }

  async deliveries(merchantId: string, id: string, query: PageRequest): Promise<Page<WebhookAttemptDto>> {
    await this.findOwned(merchantId, id);
    return listPage(
      query,
      'wha',
      (limit, after) => this.repository.attempts(id, limit, after),
      mapWebhookAttempt,
      (attempt) => attempt.webhookAttemptId,
    );
  }

  /** Sends one event to one endpoint again, in a new round of attempts. */
  resend(by: Changer, eventId: string, endpointId: string): Promise<WebhookEndpointDto> {
    return this.change(by, { action: 'event.resent', objectId: eventId, details: { webhookEndpointId: endpointId } }, async (manager) => {
      const endpoint = await this.lockOwned(manager, by.principal.merchantId, endpointId);
      const event = isId('evt', eventId) ? await this.eventsRepository.findOwned(by.principal.merchantId, eventId) : undefined;
      if (!event) throw new EventNotFoundError();
      await this.repository.resend(manager, endpointId, [eventId]);
      return mapWebhookEndpoint(endpoint);
    });
  }

  /** Sends again every event since `since` that the endpoint is owed and has not acknowledged. */
  recover(by: Changer, endpointId: string, since: Date): Promise<RecoveredDto> {
    return this.change(by, { action: 'webhook_endpoint.recovered', objectId: endpointId, details: { since: since.toISOString() } }, async (manager) => {
      const endpoint = await this.lockOwned(manager, by.principal.merchantId, endpointId);
      const ids = await this.eventsRepository.undeliveredSince(by.principal.merchantId, { endpointId, enabledEvents: endpoint.enabledEvents }, since);
      if (ids.length > 0) await this.repository.resend(manager, endpointId, ids);
      return { resent: ids.length };
    });
  }

  @JobHandler(EVENTS_JOBS.mailEndpointDisabled)
  async mailDisabled({ endpointId }: { endpointId: string }): Promise<void> {
    const endpoint = await this.repository.findById(endpointId);
    if (!endpoint?.disabled || endpoint.disabledReason !== 'failing') return;
    const text = [
      `Every delivery to your webhook endpoint ${endpoint.url} (${endpoint.id}) has failed for ${Math.round(this.config.webhooks.disableAfterMs / 3_600_000)} hours, so we have disabled it.`,
      '',
      'Events are still recorded. Once the endpoint answers again, enable it in the Merchant Dashboard and recover what it missed:',
      `${this.config.publicBaseUrl}/dashboard/webhooks/${endpoint.id}`,
    ].join('\n');
    for (const to of await this.team.ownerEmails(endpoint.merchantId)) {
      await this.mailer.send({ to, subject: 'A webhook endpoint was disabled', text });
    }
  }

  private change<T>(by: Changer, what: AuditAction, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const result = await work(manager);
      await this.audit.record(manager, auditActor(by.principal, by.ip), what);
      return result;
    });
  }

  private async findOwned(merchantId: string, id: string): Promise<WebhookEndpointRecord> {
    return endpointOrNotFound(await this.repository.findOwned(merchantId, id));
  }

  private async lockOwned(manager: EntityManager, merchantId: string, id: string): Promise<WebhookEndpointRecord> {
    return endpointOrNotFound(await this.repository.findOwned(merchantId, id, manager, true));
  }

  /** The endpoint as this transaction left it (already locked by it, or inserted). */
  private async read(manager: EntityManager, merchantId: string, id: string): Promise<WebhookEndpointDto> {
    return mapWebhookEndpoint((await this.repository.findOwned(merchantId, id, manager))!);
  }
}

/** `whsec_` and the base64 of 32 random bytes, as Standard Webhooks secrets are written. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function unique(types: string[]): string[] {
  return types.includes('*') ? ['*'] : [...new Set(types)];
}
