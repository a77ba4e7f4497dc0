import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, Max, MaxLength } from 'class-validator';
import { IsDisplayText } from '../../../common/validation/display-text.validator';
import { trimmed } from '../../../common/validation/transforms';
import { ListQuery } from '../../../common/http/list.query';
import { IsMoneyAmount } from '../../../common/validation/money.validator';
import { CHAIN_NAMES, type ChainName } from '../../../config/vault-chains.config';
import { VAULT_TRANSFER_STATES } from '../vault.states';
import { CHAIN, EXPLORER_URL_PROPERTY } from './vault.dto';

/** The most one transfer out sends: well inside exact integer micro-USDC. */
export const MAX_TRANSFER_USDC = 1_000_000_000;

export class CreateVaultTransferDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  @IsString()
  @IsNotEmpty()
  poboUserId: string;

  @ApiProperty(CHAIN)
  @IsIn(CHAIN_NAMES)
  chain: ChainName;

  @ApiProperty({ enum: ['USDC'], example: 'USDC' })
  @IsIn(['USDC'])
  asset: 'USDC';

  @ApiProperty({ example: 250.75, minimum: 0.000001, maximum: MAX_TRANSFER_USDC, description: 'USDC, at most 6 decimal places' })
  @IsMoneyAmount('USDC')
  @Max(MAX_TRANSFER_USDC)
  amount: number;

  @ApiProperty({
    example: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
    description: 'An address of the chain (EIP-55 checksummed when mixed-case; base58 on solana)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  toAddress: string;

  @ApiProperty({ example: 'payout-2231', maxLength: 100, description: 'Your reference, shown on the transfer and its vault transaction' })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @IsDisplayText()
  merchantReference: string;
}

export class VaultTransferDto {
  @ApiProperty({ example: 'vtr_6c7d8e9f0a1b2c3d4e5f6071', pattern: '^vtr_[0-9a-f]{24}$' })
  vaultTransferId: string;

  @ApiProperty({ example: 'vtx_5b6c7d8e9f0a1b2c3d4e5f60', description: 'Its line in the vault transactions' })
  vaultTransactionId: string;

  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: 'USDC' })
  asset: string;

  @ApiProperty({ example: 250.75 })
  amount: number;

  @ApiProperty({ example: 0.05, description: "The chain's network fee, reserved with the amount and kept once the transfer is confirmed" })
  networkFee: number;

  @ApiProperty({ example: '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C', description: "The business's vault address on the chain" })
  fromAddress: string;

  @ApiProperty({ example: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A' })
  toAddress: string;

  @ApiProperty({ example: 'payout-2231' })
  merchantReference: string;

  @ApiProperty({
    enum: VAULT_TRANSFER_STATES.states,
    description:
      '`pending` (reserved; being signed and broadcast), `submitted` (broadcast), `confirmed` (at the confirmation count) or `failed` (the chain ' +
      'refused or reverted it: amount and fee are back in `available`)',
  })
  status: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why it failed; null otherwise' })
  failureReason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Why the service cannot move a `pending` or `submitted` transfer on right now (its chain does not answer, the platform cannot pay its gas); ' +
      'null while it progresses. The service keeps trying, with the same signed transaction: the transfer is never sent twice.',
  })
  stalledReason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c',
    description: 'Null until signed',
  })
  txHash: string | null;

  @ApiProperty(EXPLORER_URL_PROPERTY)
  explorerUrl: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  submittedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was confirmed or failed' })
  completedAt: string | null;
}

export class VaultTransferEnvelopeDto {
  @ApiProperty({ example: 'Vault transfer created' })
  message: string;

  @ApiProperty({ type: VaultTransferDto })
  response: VaultTransferDto;
}

export class VaultTransferListEnvelopeDto {
  @ApiProperty({ example: 'Vault transfers retrieved' })
  message: string;

  @ApiProperty({ type: [VaultTransferDto] })
  response: VaultTransferDto[];
}

export class VaultTransferListQuery extends ListQuery {}

/** A whole request, for the OpenAPI document. */
export const CREATE_VAULT_TRANSFER_EXAMPLE = {
  poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b',
  chain: 'base',
  asset: 'USDC',
  amount: 250.75,
  toAddress: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
  merchantReference: 'payout-2231',
};
