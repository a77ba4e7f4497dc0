import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { WithdrawalListQuery } from './dto/withdrawal-list.query';
import { AuditLog, auditActor } from '../audit';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, REPLAYED_HEADER } from '../idempotency';
import { CREATE_WITHDRAWAL_EXAMPLE, CreateWithdrawalDto } from './dto/create-withdrawal.dto';
import { WithdrawalDto, WithdrawalEnvelopeDto, WithdrawalListEnvelopeDto, CREATE_WITHDRAWAL_ERRORS } from './dto/withdrawal.response';
import { WithdrawalsService } from './withdrawals.service';
import { DASHBOARD_WITHDRAWALS_PATH } from './withdrawals.routes';

/** Withdrawals for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_WITHDRAWALS_PATH)
export class WithdrawalsDashboardController {
  constructor(
    private readonly service: WithdrawalsService,
    private readonly audit: AuditLog,
  ) {}

  @Post()
  @Idempotent('required', 201, { creates: 'wd' })
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'dashboardCreateWithdrawal',
      summary: 'Withdraw NGN to a Nigerian bank account (owners)',
      description:
        "The same operation as the merchant API's, with its Idempotency-Key (the page makes one per withdrawal, so a double click makes one); recorded " +
        'in the audit log with the reservation of the funds.',
      unsafe: true,
      success: { status: 201, type: WithdrawalEnvelopeDto, headers: REPLAYED_HEADER, description: 'Created' },
      body: {
        type: CreateWithdrawalDto,
        example: CREATE_WITHDRAWAL_EXAMPLE,
      },
      errors: [...CREATE_WITHDRAWAL_ERRORS],
    },
  )
  @Answer('Withdrawal created')
  create(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: CreateWithdrawalDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<WithdrawalDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), {
      action: 'withdrawal.created',
      objectId: claim?.resourceId ?? null,
      details: { amount: dto.amount, accountNumber: dto.accountNumber },
    });
    return this.service.create(user.merchantId, dto, claim);
  }

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
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: WithdrawalListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WithdrawalDto[]> {
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
