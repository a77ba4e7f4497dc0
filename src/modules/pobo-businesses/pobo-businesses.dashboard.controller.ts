import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { BusinessListQuery } from './dto/business-list.query';
import { AuditLog, auditActor } from '../audit';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { PoboBusinessesService } from './pobo-businesses.service';
import { DASHBOARD_BUSINESSES_PATH } from './pobo-businesses.routes';

/** The businesses for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: businesses')
@Controller(DASHBOARD_BUSINESSES_PATH)
export class PoboBusinessesDashboardController {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly agreement: PoboBusinessAgreementService,
    private readonly audit: AuditLog,
  ) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListBusinesses',
      summary: "The merchant's businesses, newest first",
      unsafe: false,
      success: { status: 200, type: PoboBusinessListEnvelopeDto, description: 'A page of businesses', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Businesses retrieved')
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: BusinessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PoboBusinessDto[]> {
    return sendPage(reply, await this.businesses.list(user.merchantId, query, DASHBOARD_BUSINESSES_PATH));
  }

  @Get(':poboUserId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetBusiness',
      summary: 'One business: agreement, KYB state, wallets, Naira account',
      unsafe: false,
      success: { status: 200, type: PoboBusinessEnvelopeDto, description: 'The business' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Business retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('poboUserId') poboUserId: string): Promise<PoboBusinessDto> {
    return this.businesses.get(user.merchantId, poboUserId);
  }

  @Post(':poboUserId/agreement-link')
  @Idempotent('required', 201)
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'dashboardIssueAgreementLink',
      summary: 'Issue a fresh agreement link, voiding the earlier ones (owners)',
      description:
        "The same operation as the merchant API's, with its Idempotency-Key (the page makes one per click); recorded in the audit log with the new link.",
      unsafe: true,
      success: { status: 201, type: PoboBusinessEnvelopeDto, headers: REPLAYED_HEADER, description: '`response.agreement.url` is the new link' },
      errors: ['resource_not_found', 'uri_too_long', 'agreement_already_accepted', ...idempotencyErrors('required')],
    },
  )
  @Answer('Agreement link issued')
  issueAgreementLink(
    @CurrentUser() user: DashboardPrincipal,
    @Param('poboUserId') poboUserId: string,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<PoboBusinessDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), { action: 'pobo_business.agreement_link_issued', objectId: poboUserId });
    return this.agreement.issueLink(user.merchantId, poboUserId, claim);
  }
}
