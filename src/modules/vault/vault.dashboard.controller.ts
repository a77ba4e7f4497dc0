import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { AuditLog, auditActor } from '../audit';
import { CurrentUser, DashboardOperation, DashboardPrincipal, TestModeOnly } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import {
  CREATE_VAULT_TRANSFER_EXAMPLE,
  CreateVaultTransferDto,
  SendTestDepositDto,
  TEST_DEPOSIT_EXAMPLE,
  TestDepositSentDto,
  TestDepositSentEnvelopeDto,
  VaultDto,
  VaultEnvelopeDto,
  VaultTransactionDto,
  VaultTransactionListEnvelopeDto,
  VaultTransactionListQuery,
  VaultTransferDto,
  VaultTransferEnvelopeDto,
  VaultTransferListEnvelopeDto,
  VaultTransferListQuery,
} from './dto/vault.dto';
import { DASHBOARD_VAULT_BUSINESSES_PATH, DASHBOARD_VAULT_TEST_HELPERS_PATH, DASHBOARD_VAULT_TRANSFERS_PATH } from './vault.routes';
import { VaultService } from './vault.service';
import { VaultTransfersService } from './vault-transfers.service';

/** A business's vault for the dashboard, with a session: the merchant API's reads. */
@ApiTags('Dashboard: businesses')
@Controller(DASHBOARD_VAULT_BUSINESSES_PATH)
export class VaultDashboardController {
  constructor(private readonly vaults: VaultService) {}

  @Get(':poboUserId/vault')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetVault',
      summary: "A business's vault: its wallets and USDC balances per chain",
      unsafe: false,
      success: { status: 200, type: VaultEnvelopeDto, description: 'The vault' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Vault retrieved')
  vault(@CurrentUser() user: DashboardPrincipal, @Param('poboUserId') poboUserId: string): Promise<VaultDto> {
    return this.vaults.vault(user.merchantId, poboUserId);
  }

  @Get(':poboUserId/vault/transactions')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListVaultTransactions',
      summary: "A business's vault transactions, newest first",
      unsafe: false,
      success: { status: 200, type: VaultTransactionListEnvelopeDto, description: 'A page of vault transactions', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor', 'resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Vault transactions retrieved')
  async transactions(
    @CurrentUser() user: DashboardPrincipal,
    @Param('poboUserId') poboUserId: string,
    @Query() query: VaultTransactionListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransactionDto[]> {
    return sendPage(reply, await this.vaults.transactions(user.merchantId, poboUserId, query, DASHBOARD_VAULT_BUSINESSES_PATH));
  }
}

/** Vault transfers for the dashboard, with a session: the same service and idempotency as the merchant API's. */
@ApiTags('Dashboard: money')
@Controller(DASHBOARD_VAULT_TRANSFERS_PATH)
export class VaultTransfersDashboardController {
  constructor(
    private readonly transfers: VaultTransfersService,
    private readonly audit: AuditLog,
  ) {}

  @Post()
  @Idempotent('required', 201, { creates: 'vtr' })
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'dashboardCreateVaultTransfer',
      summary: "Send USDC from a business's vault (owners)",
      description:
        "The merchant API's operation, with its Idempotency-Key (the page makes one per transfer, so a double click sends one); recorded in the audit " +
        'log with the reservation.',
      unsafe: true,
      success: { status: 201, type: VaultTransferEnvelopeDto, headers: REPLAYED_HEADER, description: 'Created, `pending`' },
      body: { type: CreateVaultTransferDto, example: CREATE_VAULT_TRANSFER_EXAMPLE },
      errors: ['validation_failed', 'address_invalid', 'resource_not_found', 'kyb_not_verified', 'insufficient_funds', ...idempotencyErrors('required')],
    },
  )
  @Answer('Vault transfer created')
  create(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: CreateVaultTransferDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<VaultTransferDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), {
      action: 'vault_transfer.created',
      objectId: claim?.resourceId ?? null,
      details: { poboUserId: dto.poboUserId, chain: dto.chain, amount: dto.amount, toAddress: dto.toAddress },
    });
    return this.transfers.create(user.merchantId, dto, claim);
  }

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardListVaultTransfers',
      summary: 'Vault transfers, newest first',
      unsafe: false,
      success: { status: 200, type: VaultTransferListEnvelopeDto, description: 'A page of vault transfers', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Vault transfers retrieved')
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: VaultTransferListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransferDto[]> {
    return sendPage(reply, await this.transfers.list(user.merchantId, query, DASHBOARD_VAULT_TRANSFERS_PATH));
  }

  @Get(':vaultTransferId')
  @DashboardOperation(
    {},
    {
      operationId: 'dashboardGetVaultTransfer',
      summary: 'One vault transfer',
      unsafe: false,
      success: { status: 200, type: VaultTransferEnvelopeDto, description: 'The transfer' },
      errors: ['resource_not_found', 'uri_too_long'],
    },
  )
  @Answer('Vault transfer retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('vaultTransferId') id: string): Promise<VaultTransferDto> {
    return this.transfers.get(user.merchantId, id);
  }
}

/** The test-helpers panel's vault deposit: sandbox USDC only, so developers may send it as well as owners; 404 in live mode. */
@ApiTags('Dashboard: test helpers')
@TestModeOnly()
@Controller(DASHBOARD_VAULT_TEST_HELPERS_PATH)
export class VaultTestHelpersDashboardController {
  constructor(
    private readonly vaults: VaultService,
    private readonly audit: AuditLog,
  ) {}

  @Post('deposits')
  @Idempotent('required', 202)
  @DashboardOperation(
    { roles: ['owner', 'developer'] },
    {
      operationId: 'dashboardSendVaultDepositForTest',
      summary: "Test mode only: send USDC to a business's vault on a local chain (owners, developers)",
      description: "The merchant API's test helper, with its Idempotency-Key (the panel makes one per click); recorded in the audit log.",
      unsafe: true,
      success: { status: 202, type: TestDepositSentEnvelopeDto, headers: REPLAYED_HEADER, description: 'The transaction was sent' },
      body: { type: SendTestDepositDto, example: TEST_DEPOSIT_EXAMPLE },
      errors: ['validation_failed', 'resource_not_found', 'route_not_found', 'service_unavailable', ...idempotencyErrors('required')],
    },
  )
  @Answer('Test deposit sent')
  deposit(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: SendTestDepositDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
    @Req() request: FastifyRequest,
  ): Promise<TestDepositSentDto> {
    this.audit.recordWithChange(claim, auditActor(user, request.ip), {
      action: 'vault.test_deposit_sent',
      objectId: dto.poboUserId,
      details: { chain: dto.chain, amount: dto.amount },
    });
    return this.vaults.sendTestDeposit(user.merchantId, dto, claim);
  }
}
