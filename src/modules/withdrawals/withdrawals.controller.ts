import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { BANKS_PATH } from './withdrawals.routes';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiMerchantOperation, LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { WithdrawalListQuery } from './dto/withdrawal-list.query';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, REPLAYED_HEADER } from '../idempotency';
import { CREATE_WITHDRAWAL_EXAMPLE, CreateWithdrawalDto } from './dto/create-withdrawal.dto';
import {
  BankDto,
  BankListEnvelopeDto,
  WITHDRAWAL_EXAMPLE,
  WithdrawalDto,
  WithdrawalEnvelopeDto,
  WithdrawalListEnvelopeDto,
  CREATE_WITHDRAWAL_ERRORS,
} from './dto/withdrawal.response';
import { WithdrawalsService } from './withdrawals.service';
import { WITHDRAWALS_PATH } from './withdrawals.routes';

@ApiTags('Withdrawals')
@Controller()
export class WithdrawalsController {
  constructor(private readonly withdrawals: WithdrawalsService) {}

  @MerchantRoute('move_money')
  @Post(WITHDRAWALS_PATH)
  @Idempotent('required', 201, { creates: 'wd' })
  @ApiMerchantOperation({
    operationId: 'createWithdrawal',
    summary: 'Withdraw NGN to a Nigerian bank account',
    description:
      '`amount + fee` leaves the available balance atomically (`reserved` until the payout ends); not enough available is a 409 ' +
      '`insufficient_funds` with nothing reserved, and that answer is what the key replays. A failed or returned payout gives the funds ' +
      'back once (`withdrawal_reversal`). Requires an Idempotency-Key.',
    success: {
      status: 201,
      type: WithdrawalEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created; usually `processing`, `pending` while the rail is unreachable',
      example: { message: 'Withdrawal created', response: WITHDRAWAL_EXAMPLE },
    },
    body: {
      type: CreateWithdrawalDto,
      example: CREATE_WITHDRAWAL_EXAMPLE,
    },
    errors: [...CREATE_WITHDRAWAL_ERRORS],
  })
  @Answer('Withdrawal created')
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreateWithdrawalDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<WithdrawalDto> {
    return this.withdrawals.create(merchant.merchantId, dto, claim);
  }

  @MerchantRoute()
  @Get(WITHDRAWALS_PATH)
  @ApiMerchantOperation({
    operationId: 'listWithdrawals',
    summary: 'List withdrawals, newest first',
    success: {
      status: 200,
      type: WithdrawalListEnvelopeDto,
      description: 'A page of withdrawals',
      headers: LIST_HEADERS,
      example: { message: 'Withdrawals retrieved', response: [WITHDRAWAL_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  @Answer('Withdrawals retrieved')
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: WithdrawalListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WithdrawalDto[]> {
    return sendPage(reply, await this.withdrawals.list(merchant.merchantId, query));
  }

  @MerchantRoute()
  @Get(`${WITHDRAWALS_PATH}/:withdrawalId`)
  @ApiMerchantOperation({
    operationId: 'getWithdrawal',
    summary: 'Retrieve a withdrawal',
    success: {
      status: 200,
      type: WithdrawalEnvelopeDto,
      description: 'The withdrawal',
      example: { message: 'Withdrawal retrieved', response: { ...WITHDRAWAL_EXAMPLE, status: 'succeeded', completedAt: '2026-11-20T09:50:02.000Z' } },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  @Answer('Withdrawal retrieved')
  async get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('withdrawalId') id: string): Promise<WithdrawalDto> {
    return await this.withdrawals.get(merchant.merchantId, id);
  }

  @MerchantRoute()
  @Get(BANKS_PATH)
  @ApiMerchantOperation({
    operationId: 'listBanks',
    summary: 'Banks a withdrawal can pay into',
    success: {
      status: 200,
      type: BankListEnvelopeDto,
      description: 'Every bank, by CBN code',
      example: { message: 'Banks retrieved', response: [{ bankCode: '058', name: 'Guaranty Trust Bank' }] },
    },
  })
  @Answer('Banks retrieved')
  banks(): BankDto[] {
    return this.withdrawals.banks();
  }
}
