import { Controller, Query, Res } from '@nestjs/common';
import {
  BALANCE_PATH,
  BALANCE_TRANSACTIONS_PATH,
  DASHBOARD_BALANCE_PATH,
  DASHBOARD_BALANCE_TRANSACTIONS_PATH,
  DASHBOARD_DAILY_ACTIVITY_PATH,
} from './ledger.routes';
import { ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { BalanceDto, BalanceEnvelopeDto, BalanceTransactionDto, BalanceTransactionListEnvelopeDto } from './dto/balance.response';
import { BalanceService } from './balance.service';
import { DailyActivityEnvelopeDto, DailyActivityListDto, DailyActivityQuery } from './dto/balance-daily.dto';

/** Balance transactions in one CSV export at most; past it, narrow by paging the list. */
const CSV_MAX_ROWS = 50_000;
const CSV_COLUMNS = ['balanceTransactionId', 'type', 'amount', 'currency', 'sourceId', 'poboUserId', 'createdAt'] as const;

@Controller()
export class BalanceController {
  constructor(private readonly balance: BalanceService) {}

  @Operation({
    method: 'GET',
    merchant: { path: BALANCE_PATH, tag: 'Balance' },
    dashboard: { path: DASHBOARD_BALANCE_PATH, tag: 'Dashboard: money' },
    answer: 'Balance retrieved',
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
  async get(@MerchantId() merchantId: string): Promise<BalanceDto[]> {
    return await this.balance.get(merchantId);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: DASHBOARD_DAILY_ACTIVITY_PATH, tag: 'Dashboard: money' },
    answer: 'Daily activity retrieved',
    operationId: 'getDailyActivity',
    summary: "Money in and out per day, and the available balance at each day's end",
    description:
      "From the ledger's balance transactions: collected (payments and Naira account collections), paid out (withdrawals), sent abroad " +
      "(international payments) and fees per calendar day of `timeZone`, each day's closing available balance walked back from the balance now. " +
      "What the dashboard's overview charts draw.",
    success: {
      status: 200,
      type: DailyActivityEnvelopeDto,
      description: 'One entry per day, oldest first',
      example: {
        message: 'Daily activity retrieved',
        response: {
          currency: 'NGN',
          timeZone: 'Africa/Lagos',
          days: [
            {
              date: '2026-11-20',
              collected: 250000,
              collectedCount: 3,
              paidOut: 50000,
              paidOutCount: 1,
              sentAbroad: 160250.75,
              sentAbroadCount: 1,
              fees: 100,
              closingAvailable: 1250000.5,
            },
          ],
        },
      },
    },
    errors: ['validation_failed', 'uri_too_long'],
  })
  daily(@MerchantId() merchantId: string, @Query() query: DailyActivityQuery): Promise<DailyActivityListDto> {
    return this.balance.daily(merchantId, query);
  }

  @Operation({
    method: 'GET',
    merchant: { path: BALANCE_TRANSACTIONS_PATH, tag: 'Balance' },
    dashboard: { path: DASHBOARD_BALANCE_TRANSACTIONS_PATH, tag: 'Dashboard: money' },
    answer: 'Balance transactions retrieved',
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
  async list(@MerchantId() merchantId: string, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<BalanceTransactionDto[]> {
    return sendPage(reply, await this.balance.transactions(merchantId, query));
  }

  @Operation({
    method: 'GET',
    dashboard: { path: `${DASHBOARD_BALANCE_TRANSACTIONS_PATH}/export.csv`, tag: 'Dashboard: money' },
    operationId: 'dashboardExportBalanceTransactions',
    summary: 'Every balance transaction as CSV, newest first (at most 50,000 rows)',
    success: { status: 200, description: 'A CSV file with a header row: ' + CSV_COLUMNS.join(', ') },
  })
  @ApiProduces('text/csv')
  async exportCsv(@MerchantId() merchantId: string, @Res() reply: FastifyReply): Promise<void> {
    const lines = [CSV_COLUMNS.join(',')];
    let cursor: string | undefined;
    do {
      const page = await this.balance.transactions(merchantId, { cursor, limit: 100 });
      for (const row of page.items) lines.push(CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
      cursor = page.next?.cursor;
    } while (cursor && lines.length <= CSV_MAX_ROWS);
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="balance-transactions.csv"')
      .header('Cache-Control', 'no-store')
      .send(`${lines.join('\r\n')}\r\n`);
  }
}

/** RFC 4180: quoted when it holds a comma, quote or line break. Every value here is the service's own (ids, numbers, dates). */
function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
