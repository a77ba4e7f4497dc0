import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { ApiMerchantOperation, LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { CurrentMerchant, MerchantPrincipal, MerchantRoute } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import {
  CREATE_VAULT_TRANSFER_EXAMPLE,
  CreateVaultTransferDto,
  VaultTransferDto,
  VaultTransferEnvelopeDto,
  VaultTransferListEnvelopeDto,
  VaultTransferListQuery,
} from './dto/vault.dto';
import { VAULT_TRANSFERS_PATH } from './vault.routes';
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
  createdAt: '2026-11-20T10:15:00.000Z',
  submittedAt: null,
  completedAt: null,
};

@ApiTags('Vault')
@Controller(VAULT_TRANSFERS_PATH)
export class VaultTransfersController {
  constructor(private readonly transfers: VaultTransfersService) {}

  @MerchantRoute('move_money')
  @Post()
  @Idempotent('required', 201, { creates: 'vtr' })
  @ApiMerchantOperation({
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
    errors: ['validation_failed', 'address_invalid', 'resource_not_found', 'kyb_not_verified', 'insufficient_funds', ...idempotencyErrors('required')],
  })
  @Answer('Vault transfer created')
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreateVaultTransferDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<VaultTransferDto> {
    return this.transfers.create(merchant.merchantId, dto, claim);
  }

  @MerchantRoute()
  @Get()
  @ApiMerchantOperation({
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
  @Answer('Vault transfers retrieved')
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: VaultTransferListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VaultTransferDto[]> {
    return sendPage(reply, await this.transfers.list(merchant.merchantId, query));
  }

  @MerchantRoute()
  @Get(':vaultTransferId')
  @ApiMerchantOperation({
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
  @Answer('Vault transfer retrieved')
  get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('vaultTransferId') id: string): Promise<VaultTransferDto> {
    return this.transfers.get(merchant.merchantId, id);
  }
}
