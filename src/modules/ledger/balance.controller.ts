import { Controller, Get, Query, Res } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { BALANCE_PATH, BALANCE_TRANSACTIONS_PATH } from './ledger.routes';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiMerchantOperation, LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal } from '../auth';
import { BalanceDto, BalanceEnvelopeDto, BalanceTransactionDto, BalanceTransactionListEnvelopeDto } from './dto/balance.response';
import { BalanceService } from './balance.service';

@ApiTags('Balance')
@Controller()
export class BalanceController {
  constructor(private readonly balance: BalanceService) {}

  @MerchantRoute()
  @Get(BALANCE_PATH)
  @ApiMerchantOperation({
    operationId: 'getBalance',
    summary: "The merchant's balance per currency",
    description: '`available` is what withdrawals and international payments may use; `reserved` is held by those in flight.',
    success: {
      status: 200,
      type: BalanceEnvelopeDto,
      description: 'One entry per currency (NGN)',
      example: { message: 'Balance retrieved', response: [{ currency: 'NGN', available: 125000.5, reserved: 20000 }] },
    },
  })
  @Answer('Balance retrieved')
  async get(@CurrentMerchant() merchant: MerchantPrincipal): Promise<BalanceDto[]> {
    return await this.balance.get(merchant.merchantId);
  }

  @MerchantRoute()
  @Get(BALANCE_TRANSACTIONS_PATH)
  @ApiMerchantOperation({
    operationId: 'listBalanceTransactions',
    summary: 'Every change of the available balance, newest first',
    success: {
      status: 200,
      type: BalanceTransactionListEnvelopeDto,
      description: 'A page of balance transactions',
      headers: LIST_HEADERS,
      example: {
        message: 'Balance transactions retrieved',
        response: [
          {
            balanceTransactionId: 'btx_5c1d0e6a7b8c9d0e1f2a3b4c',
            type: 'payment',
            amount: 50000,
            currency: 'NGN',
            sourceId: 'pi_9f8e7d6c5b4a39281706f5e4',
            poboUserId: null,
            createdAt: '2026-11-20T09:41:07.000Z',
          },
        ],
      },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  @Answer('Balance transactions retrieved')
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BalanceTransactionDto[]> {
    return sendPage(reply, await this.balance.transactions(merchant.merchantId, query));
  }
}
