import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import {
  CREATE_VAULT_TRANSFER_EXAMPLE,
  CreateVaultTransferDto,
  VaultTransferDto,
  VaultTransferEnvelopeDto,
  VaultTransferListEnvelopeDto,
  VaultTransferListQuery,
} from './dto/vault-transfer.dto';
import { DASHBOARD_VAULT_TRANSFERS_PATH, VAULT_TRANSFERS_PATH } from './vault.routes';
import { VaultTransfersService } from './vault-transfers.service';

const TRANSFER_EXAMPLE: VaultTransferDto = {
  vaultTransferId: 'vtr_6c7d8e9f0a1b2c3d4e5f6071',
  vaultTransactionId: 'vtx_5b6c7d8e9f0a1b2c3d4e5f60',
  poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b',
  chain: 'base',
  asset: 'USDC',
  amount: 250.75,
  networkFee: 0.05,
  fromAddress: '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C',
  toAddress: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
  merchantReference: 'payout-2231',
  status: 'pending',
  failureReason: null,
  stalledReason: null,
  txHash: null,
  explorerUrl: null,
  createdAt: '2026-11-20T10:15:00.000Z',
  submittedAt: null,
  completedAt: null,
};

@Controller()
export class VaultTransfersController {
  constructor(private readonly transfers: VaultTransfersService) {}

  @Operation<CreateVaultTransferDto>({
    method: 'POST',
    merchant: { path: VAULT_TRANSFERS_PATH, tag: 'Vault', permission: 'move_money' },
    dashboard: {
      path: DASHBOARD_VAULT_TRANSFERS_PATH,
      tag: 'Dashboard: money',
      roles: ['owner'],
      audit: ({ body, claim }) => ({
        action: 'vault_transfer.created',
        objectId: claim.resourceId,
        details: { poboUserId: body.poboUserId, chain: body.chain, amount: body.amount, toAddress: body.toAddress },
      }),
    },
    idempotent: { mode: 'required', status: 201, creates: 'vtr' },
    answer: 'Vault transfer created',
    operationId: 'createVaultTransfer',
    summary: "Send USDC from a business's vault to an address on the chain",
    description:
      'Only for a business whose KYB is `verified` (409 `kyb_not_verified`). The address must be one of the chain (400 `address_invalid`). ' +
      "`amount + networkFee` leaves the vault's `available` on that chain atomically (409 `insufficient_funds` with nothing reserved). The service " +
      "signs a real transaction with the business's key (an ERC-20 `transfer`, the gas paid by the platform; an SPL transfer, the fee payer the " +
      "platform's) and broadcasts it: `pending` → `submitted` → `confirmed` at the chain's confirmation count, or `failed` (refused or reverted, " +
      'the reservation back once). A transaction the chain does not show is broadcast again unchanged, never as a second transfer. Requires an Idempotency-Key.',
    success: {
      status: 201,
      type: VaultTransferEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created, `pending`: follow it with GET until `confirmed` or `failed`',
      example: { message: 'Vault transfer created', response: TRANSFER_EXAMPLE },
    },
    body: {
      type: CreateVaultTransferDto,
      example: CREATE_VAULT_TRANSFER_EXAMPLE,
    },
    errors: ['validation_failed', 'address_invalid', 'resource_not_found', 'kyb_not_verified', 'insufficient_funds'],
  })
  create(
    @MerchantId() merchantId: string,
    @Body() dto: CreateVaultTransferDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<VaultTransferDto> {
    return this.transfers.create(merchantId, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: VAULT_TRANSFERS_PATH, tag: 'Vault' },
    dashboard: { path: DASHBOARD_VAULT_TRANSFERS_PATH, tag: 'Dashboard: money' },
    answer: 'Vault transfers retrieved',
    operationId: 'listVaultTransfers',
    summary: 'List vault transfers, newest first',
    success: {
      status: 200,
      type: VaultTransferListEnvelopeDto,
      description: 'A page of vault transfers',
      headers: LIST_HEADERS,
      example: { message: 'Vault transfers retrieved', response: [TRANSFER_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor', 'uri_too_long'],
  })
  async list(
    @MerchantId() merchantId: string,
    @Query() query: VaultTransferListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransferDto[]> {
    return sendPage(reply, await this.transfers.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${VAULT_TRANSFERS_PATH}/:vaultTransferId`, tag: 'Vault' },
    dashboard: { path: `${DASHBOARD_VAULT_TRANSFERS_PATH}/:vaultTransferId`, tag: 'Dashboard: money' },
    answer: 'Vault transfer retrieved',
    operationId: 'getVaultTransfer',
    summary: 'Retrieve a vault transfer',
    success: {
      status: 200,
      type: VaultTransferEnvelopeDto,
      description: 'The transfer',
      example: { message: 'Vault transfer retrieved', response: { ...TRANSFER_EXAMPLE, status: 'confirmed' } },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  get(@MerchantId() merchantId: string, @Param('vaultTransferId') id: string): Promise<VaultTransferDto> {
    return this.transfers.get(merchantId, id);
  }
}
