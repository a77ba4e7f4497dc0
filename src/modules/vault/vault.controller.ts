import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import { MerchantId, TestModeOnly } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { POBO_USERS_PATH } from '../pobo-businesses';
import {
  VaultDto,
  VaultEnvelopeDto,
  VaultHolderDto,
  VaultHolderListEnvelopeDto,
  VaultTotalsDto,
  VaultTotalsEnvelopeDto,
  VaultTransactionDto,
  VaultTransactionListEnvelopeDto,
  VaultTransactionListQuery,
} from './dto/vault.dto';
import {
  AddressBlacklistedDto,
  AddressBlacklistedEnvelopeDto,
  BlacklistAddressDto,
  SendTestDepositDto,
  TEST_DEPOSIT_EXAMPLE,
  TestDepositSentDto,
  TestDepositSentEnvelopeDto,
} from './dto/vault-test-helpers.dto';
import { DASHBOARD_VAULT_BUSINESSES_PATH, DASHBOARD_VAULT_PATH, DASHBOARD_VAULT_TEST_HELPERS_PATH, VAULT_TEST_HELPERS_PATH } from './vault.routes';
import { VaultService } from './vault.service';

const BUSINESS = 'pobo_4c1f0a9e2b7d3c5e8f601a2b';
const EVM_VAULT = '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C';
const TX_HASH = '0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c';

export const VAULT_EXAMPLE: VaultDto = {
  poboUserId: BUSINESS,
  wallets: [
    { chain: 'ethereum', address: EVM_VAULT },
    { chain: 'polygon', address: EVM_VAULT },
    { chain: 'base', address: EVM_VAULT },
    { chain: 'solana', address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' },
  ],
  balances: [
    { chain: 'ethereum', asset: 'USDC', available: 0, pending: 0 },
    { chain: 'polygon', asset: 'USDC', available: 0, pending: 0 },
    { chain: 'base', asset: 'USDC', available: 1250.5, pending: 100 },
    { chain: 'solana', asset: 'USDC', available: 40, pending: 0 },
  ],
};

export const VAULT_TRANSACTION_EXAMPLE: VaultTransactionDto = {
  vaultTransactionId: 'vtx_5b6c7d8e9f0a1b2c3d4e5f60',
  poboUserId: BUSINESS,
  direction: 'deposit',
  chain: 'base',
  asset: 'USDC',
  amount: 100,
  networkFee: 0,
  fromAddress: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
  toAddress: EVM_VAULT,
  txHash: TX_HASH,
  explorerUrl: `https://basescan.org/tx/${TX_HASH}`,
  confirmations: 12,
  status: 'confirmed',
  merchantReference: null,
  createdAt: '2026-11-20T10:15:00.000Z',
  confirmedAt: '2026-11-20T10:15:26.000Z',
};

/** The answer of both lists of vault transactions: a business's, and every business's. */
const VAULT_TRANSACTIONS_PAGE = {
  status: 200,
  type: VaultTransactionListEnvelopeDto,
  description: 'A page of vault transactions',
  headers: LIST_HEADERS,
  example: { message: 'Vault transactions retrieved', response: [VAULT_TRANSACTION_EXAMPLE] },
};

@Controller()
export class VaultController {
  constructor(private readonly vaults: VaultService) {}

  @Operation({
    method: 'GET',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/vault`, tag: 'Vault' },
    dashboard: { path: `${DASHBOARD_VAULT_BUSINESSES_PATH}/:poboUserId/vault`, tag: 'Dashboard: businesses' },
    answer: 'Vault retrieved',
    operationId: 'getVault',
    summary: "Retrieve a business's vault: its USDC wallets and balances per chain",
    description:
      'The business holds USDC at its EVM address on `ethereum`, `polygon` and `base`, and at its Solana address. `available` is credited deposits ' +
      'less transfers out; `pending` is deposits seen on the chain that have not reached its confirmation count yet (they are credited once they do, ' +
      'or dropped if their block leaves the chain).',
    success: { status: 200, type: VaultEnvelopeDto, description: 'The vault', example: { message: 'Vault retrieved', response: VAULT_EXAMPLE } },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  vault(@MerchantId() merchantId: string, @Param('poboUserId') poboUserId: string): Promise<VaultDto> {
    return this.vaults.vault(merchantId, poboUserId);
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/vault/transactions`, tag: 'Vault' },
    dashboard: { path: `${DASHBOARD_VAULT_BUSINESSES_PATH}/:poboUserId/vault/transactions`, tag: 'Dashboard: businesses' },
    answer: 'Vault transactions retrieved',
    operationId: 'listVaultTransactions',
    summary: "List a business's vault transactions, newest first",
    description: 'Deposits into the vault on every chain, from the moment the chain showed them (`pending`), and transfers out.',
    success: VAULT_TRANSACTIONS_PAGE,
    errors: ['validation_failed', 'invalid_cursor', 'resource_not_found', 'uri_too_long'],
  })
  async transactions(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @Query() query: VaultTransactionListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransactionDto[]> {
    return sendPage(reply, await this.vaults.transactions(merchantId, poboUserId, query));
  }

  @Operation({
    method: 'GET',
    dashboard: { path: DASHBOARD_VAULT_PATH, tag: 'Dashboard: money' },
    answer: 'Vault totals retrieved',
    operationId: 'getVaultTotals',
    summary: "Every business's vault summed: USDC available and pending on each chain",
    description: 'Available is what the ledger holds for the businesses; pending is deposits seen on a chain and not yet at its confirmation count.',
    success: {
      status: 200,
      type: VaultTotalsEnvelopeDto,
      description: 'The totals',
      example: { message: 'Vault totals retrieved', response: { asset: 'USDC', available: 1290.5, pending: 100, balances: VAULT_EXAMPLE.balances } },
    },
    errors: [],
  })
  totals(@MerchantId() merchantId: string): Promise<VaultTotalsDto> {
    return this.vaults.totals(merchantId);
  }

  @Operation({
    method: 'GET',
    dashboard: { path: `${DASHBOARD_VAULT_PATH}/businesses`, tag: 'Dashboard: money' },
    answer: 'Vault holders retrieved',
    operationId: 'listVaultHolders',
    summary: 'List the businesses that hold USDC, with their balances on each chain',
    description: 'A business is listed once a deposit to it has been credited, in business id order (the cursor is the last business of the previous page).',
    success: {
      status: 200,
      type: VaultHolderListEnvelopeDto,
      description: 'A page of businesses',
      headers: LIST_HEADERS,
      example: { message: 'Vault holders retrieved', response: [{ poboUserId: BUSINESS, businessName: 'Acme Trading Ltd', balances: VAULT_EXAMPLE.balances }] },
    },
    errors: ['validation_failed', 'invalid_cursor', 'uri_too_long'],
  })
  async holders(@MerchantId() merchantId: string, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<VaultHolderDto[]> {
    return sendPage(reply, await this.vaults.holders(merchantId, query));
  }

  @Operation({
    method: 'GET',
    dashboard: { path: `${DASHBOARD_VAULT_PATH}/transactions`, tag: 'Dashboard: money' },
    answer: 'Vault transactions retrieved',
    operationId: 'listMerchantVaultTransactions',
    summary: "List every business's vault transactions, newest first",
    description: "The merchant's deposits and transfers out on every chain, as each business's own list shows them.",
    success: VAULT_TRANSACTIONS_PAGE,
    errors: ['validation_failed', 'invalid_cursor', 'uri_too_long'],
  })
  async merchantTransactions(
    @MerchantId() merchantId: string,
    @Query() query: VaultTransactionListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransactionDto[]> {
    return sendPage(reply, await this.vaults.transactions(merchantId, undefined, query));
  }
}

@TestModeOnly()
@Controller()
export class VaultTestHelpersController {
  constructor(private readonly vaults: VaultService) {}

  @Operation<SendTestDepositDto>({
    method: 'POST',
    merchant: { path: `${VAULT_TEST_HELPERS_PATH}/deposits`, tag: 'Test helpers', permission: 'write' },
    dashboard: {
      path: `${DASHBOARD_VAULT_TEST_HELPERS_PATH}/deposits`,
      tag: 'Dashboard: test helpers',
      roles: ['owner', 'developer'],
      idempotency: 'required',
      audit: ({ body }) => ({ action: 'vault.test_deposit_sent', objectId: body.poboUserId, details: { chain: body.chain, amount: body.amount } }),
    },
    idempotent: { mode: 'optional', status: 202 },
    answer: 'Test deposit sent',
    operationId: 'sendVaultDepositForTest',
    summary: "Test keys only: send USDC to a business's vault on a local chain",
    description:
      "The local chain's faucet sends the USDC in a real transaction; the worker finds it in the chain's next blocks, lists it as a `pending` deposit " +
      'and credits it at the confirmation count. The same Idempotency-Key sends it once. A live key gets 404.',
    success: {
      status: 202,
      headers: REPLAYED_HEADER,
      type: TestDepositSentEnvelopeDto,
      description: 'The transaction was sent',
      example: {
        message: 'Test deposit sent',
        response: { poboUserId: BUSINESS, chain: 'base', toAddress: EVM_VAULT, amount: 250.75, txHash: TX_HASH },
      },
    },
    body: { type: SendTestDepositDto, example: TEST_DEPOSIT_EXAMPLE },
    errors: ['validation_failed', 'resource_not_found', 'route_not_found', 'service_unavailable'],
  })
  deposit(
    @MerchantId() merchantId: string,
    @Body() dto: SendTestDepositDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<TestDepositSentDto> {
    return this.vaults.sendTestDeposit(merchantId, dto, claim);
  }

  @Operation({
    method: 'POST',
    merchant: { path: `${VAULT_TEST_HELPERS_PATH}/blacklist`, tag: 'Test helpers', permission: 'write' },
    idempotent: { mode: 'optional', status: 200 },
    answer: 'Address blacklisted',
    operationId: 'blacklistAddressForTest',
    summary: "Test keys only: blacklist an address on a local chain's USDC",
    description:
      "The USDC's owner blacklists the address (Circle's blacklist on the EVM chains; on Solana its USDC account is frozen), so a transfer to it " +
      'reverts on the chain. A live key gets 404.',
    success: {
      status: 200,
      headers: REPLAYED_HEADER,
      type: AddressBlacklistedEnvelopeDto,
      description: 'The address is blacklisted',
      example: { message: 'Address blacklisted', response: { chain: 'base', address: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A', txHash: TX_HASH } },
    },
    body: { type: BlacklistAddressDto, example: { chain: 'base', address: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A' } },
    errors: ['validation_failed', 'address_invalid', 'route_not_found', 'service_unavailable'],
  })
  blacklist(@Body() dto: BlacklistAddressDto, @IdempotencyContext() claim: IdempotencyClaim | undefined): Promise<AddressBlacklistedDto> {
    return this.vaults.blacklist(dto, claim);
  }
}
