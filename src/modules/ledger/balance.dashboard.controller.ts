import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { BalanceService } from './balance.service';
import { BalanceDto, BalanceEnvelopeDto, BalanceTransactionDto, BalanceTransactionListEnvelopeDto } from './dto/balance.response';
import { DASHBOARD_BALANCE_PATH, DASHBOARD_BALANCE_TRANSACTIONS_PATH } from './ledger.routes';

/** Balance transactions in one CSV export at most; past it, narrow by paging the list. */
const CSV_MAX_ROWS = 50_000;
const CSV_COLUMNS = ['balanceTransactionId', 'type', 'amount', 'currency', 'sourceId', 'poboUserId', 'createdAt'] as const;

/** The balance for the dashboard, with a session: the same service and answers as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller()
export class BalanceDashboardController {
  constructor(private readonly balance: BalanceService) {}

  @Get(DASHBOARD_BALANCE_PATH)
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetBalance',
      summary: "The merchant's balance per currency",
      unsafe: false,
      success: { status: 200, type: BalanceEnvelopeDto, description: 'One entry per currency (NGN)' },
    },
  )
  @Answer('Balance retrieved')
  get(@CurrentUser() user: DashboardPrincipal): Promise<BalanceDto[]> {
    return this.balance.get(user.merchantId);
  }

  @Get(DASHBOARD_BALANCE_TRANSACTIONS_PATH)
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListBalanceTransactions',
      summary: 'Every change of the available balance, newest first',
      unsafe: false,
      success: { status: 200, type: BalanceTransactionListEnvelopeDto, description: 'A page of balance transactions', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Balance transactions retrieved')
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BalanceTransactionDto[]> {
    return sendPage(reply, await this.balance.transactions(user.merchantId, query, DASHBOARD_BALANCE_TRANSACTIONS_PATH));
  }

  @Get(`${DASHBOARD_BALANCE_TRANSACTIONS_PATH}/export.csv`)
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardExportBalanceTransactions',
      summary: 'Every balance transaction as CSV, newest first (at most 50,000 rows)',
      unsafe: false,
      success: { status: 200, description: 'A CSV file with a header row: ' + CSV_COLUMNS.join(', ') },
    },
  )
  @ApiProduces('text/csv')
  async exportCsv(@CurrentUser() user: DashboardPrincipal, @Res() reply: FastifyReply): Promise<void> {
    const lines = [CSV_COLUMNS.join(',')];
    let cursor: string | undefined;
    do {
      const page = await this.balance.transactions(user.merchantId, { cursor, limit: 100 }, DASHBOARD_BALANCE_TRANSACTIONS_PATH);
      for (const row of page.items) lines.push(CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
      cursor = page.nextUrl ? page.items[page.items.length - 1].balanceTransactionId : undefined;
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
