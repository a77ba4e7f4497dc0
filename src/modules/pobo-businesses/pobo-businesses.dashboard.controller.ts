import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessesService } from './pobo-businesses.service';
import { DASHBOARD_BUSINESSES_PATH } from './pobo-businesses.routes';

/** The businesses for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: businesses')
@Controller(DASHBOARD_BUSINESSES_PATH)
export class PoboBusinessesDashboardController {
  constructor(private readonly businesses: PoboBusinessesService) {}

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
  async list(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<PoboBusinessDto[]> {
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
}
