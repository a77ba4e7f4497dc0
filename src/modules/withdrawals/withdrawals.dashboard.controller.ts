import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { WithdrawalDto, WithdrawalEnvelopeDto, WithdrawalListEnvelopeDto } from './dto/withdrawal.response';
import { WithdrawalsService } from './withdrawals.service';
import { DASHBOARD_WITHDRAWALS_PATH } from './withdrawals.routes';

/** Withdrawals for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_WITHDRAWALS_PATH)
export class WithdrawalsDashboardController {
  constructor(private readonly service: WithdrawalsService) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListWithdrawals',
      summary: 'Withdrawals, newest first',
      unsafe: false,
      success: { status: 200, type: WithdrawalListEnvelopeDto, description: 'A page of withdrawals', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Withdrawals retrieved')
  async list(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<WithdrawalDto[]> {
    return sendPage(reply, await this.service.list(user.merchantId, query, DASHBOARD_WITHDRAWALS_PATH));
  }

  @Get(':withdrawalId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetWithdrawal',
      summary: 'One withdrawal',
      unsafe: false,
      success: { status: 200, type: WithdrawalEnvelopeDto, description: 'The withdrawal' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Withdrawal retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('withdrawalId') id: string): Promise<WithdrawalDto> {
    return this.service.get(user.merchantId, id);
  }
}
