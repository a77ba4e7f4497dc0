import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { MerchantId } from '../auth';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { Operation } from '../operations';
import { CREATE_WITHDRAWAL_EXAMPLE, CreateWithdrawalDto } from './dto/create-withdrawal.dto';
import {
  BankDto,
  BankListEnvelopeDto,
  CREATE_WITHDRAWAL_ERRORS,
  WITHDRAWAL_EXAMPLE,
  WithdrawalDto,
  WithdrawalEnvelopeDto,
  WithdrawalListEnvelopeDto,
} from './dto/withdrawal.response';
import { WithdrawalListQuery } from './dto/withdrawal-list.query';
import { BANKS_PATH, DASHBOARD_WITHDRAWALS_PATH, WITHDRAWALS_PATH } from './withdrawals.routes';
import { WithdrawalsService } from './withdrawals.service';

@Controller()
export class WithdrawalsController {
  constructor(private readonly withdrawals: WithdrawalsService) {}

  @Operation<CreateWithdrawalDto>({
    method: 'POST',
    merchant: { path: WITHDRAWALS_PATH, tag: 'Withdrawals', permission: 'move_money' },
    dashboard: {
      path: DASHBOARD_WITHDRAWALS_PATH,
      tag: 'Dashboard: money',
      roles: ['owner'],
      audit: ({ body, claim }) => ({
        action: 'withdrawal.created',
        objectId: claim.resourceId,
        details: { amount: body.amount, accountNumber: body.accountNumber },
      }),
    },
    idempotent: { mode: 'required', status: 201, creates: 'wd' },
    operationId: 'createWithdrawal',
    summary: 'Withdraw NGN to a Nigerian bank account',
    description:
      '`amount + fee` leaves the available balance atomically (`reserved` until the payout ends); not enough available is a 409 ' +
      '`insufficient_funds` with nothing reserved, and that answer is what the key replays. A failed or returned payout gives the funds ' +
      'back once (`withdrawal_reversal`). Requires an Idempotency-Key (the dashboard makes one per withdrawal, so a double click makes one).',
    answer: 'Withdrawal created',
    success: {
      status: 201,
      type: WithdrawalEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created; usually `processing`, `pending` while the rail is unreachable',
      example: { message: 'Withdrawal created', response: WITHDRAWAL_EXAMPLE },
    },
    body: { type: CreateWithdrawalDto, example: CREATE_WITHDRAWAL_EXAMPLE },
    errors: [...CREATE_WITHDRAWAL_ERRORS],
  })
  create(
    @MerchantId() merchantId: string,
    @Body() dto: CreateWithdrawalDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<WithdrawalDto> {
    return this.withdrawals.create(merchantId, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: WITHDRAWALS_PATH, tag: 'Withdrawals' },
    dashboard: { path: DASHBOARD_WITHDRAWALS_PATH, tag: 'Dashboard: money' },
    operationId: 'listWithdrawals',
    summary: 'List withdrawals, newest first',
    answer: 'Withdrawals retrieved',
    success: {
      status: 200,
      type: WithdrawalListEnvelopeDto,
      description: 'A page of withdrawals',
      headers: LIST_HEADERS,
      example: { message: 'Withdrawals retrieved', response: [WITHDRAWAL_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(@MerchantId() merchantId: string, @Query() query: WithdrawalListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<WithdrawalDto[]> {
    return sendPage(reply, await this.withdrawals.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${WITHDRAWALS_PATH}/:withdrawalId`, tag: 'Withdrawals' },
    dashboard: { path: `${DASHBOARD_WITHDRAWALS_PATH}/:withdrawalId`, tag: 'Dashboard: money' },
    operationId: 'getWithdrawal',
    summary: 'Retrieve a withdrawal',
    answer: 'Withdrawal retrieved',
    success: {
      status: 200,
      type: WithdrawalEnvelopeDto,
      description: 'The withdrawal',
      example: { message: 'Withdrawal retrieved', response: { ...WITHDRAWAL_EXAMPLE, status: 'succeeded', completedAt: '2026-11-20T09:50:02.000Z' } },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  get(@MerchantId() merchantId: string, @Param('withdrawalId') id: string): Promise<WithdrawalDto> {
    return this.withdrawals.get(merchantId, id);
  }

  @Operation({
    method: 'GET',
    merchant: { path: BANKS_PATH, tag: 'Withdrawals' },
    operationId: 'listBanks',
    summary: 'Banks a withdrawal can pay into',
    answer: 'Banks retrieved',
    success: {
      status: 200,
      type: BankListEnvelopeDto,
      description: 'Every bank, by CBN code',
      example: { message: 'Banks retrieved', response: [{ bankCode: '058', name: 'Guaranty Trust Bank' }] },
    },
  })
  banks(): BankDto[] {
    return this.withdrawals.banks();
  }
}
