import { ApiProperty } from '@nestjs/swagger';
import { ListQuery } from '../../../common/http/list.query';
import { CHAIN_NAMES, type ChainName } from '../../../config/vault-chains.config';
import { VAULT_DIRECTIONS } from '../vault-transaction.entity';
import { VAULT_TRANSACTION_STATES } from '../vault.states';

/** The `chain` property every vault DTO shares. */
export const CHAIN = {
  enum: CHAIN_NAMES,
  example: 'base' as ChainName,
  description: '`ethereum`, `polygon` and `base` share the EVM address; `solana` has its own',
};

export class VaultWalletDto {
  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C', description: 'EIP-55 checksummed on the EVM chains, base58 on Solana' })
  address: string;
}

export class VaultBalanceDto {
  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: 'USDC' })
  asset: string;

  @ApiProperty({ example: 1250.5, description: 'USDC that may be transferred out (credited deposits, less transfers out and those on their way)' })
  available: number;

  @ApiProperty({ example: 100, description: 'USDC of deposits seen on the chain and not yet at its confirmation count' })
  pending: number;
}

export class VaultDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty({ type: [VaultWalletDto] })
  wallets: VaultWalletDto[];

  @ApiProperty({ type: [VaultBalanceDto], description: 'One per chain, in the order of `wallets`' })
  balances: VaultBalanceDto[];
}

export class VaultEnvelopeDto {
  @ApiProperty({ example: 'Vault retrieved' })
  message: string;

  @ApiProperty({ type: VaultDto })
  response: VaultDto;
}

/** `explorerUrl` of a vault transaction and of a transfer: where its chain's explorer shows it. */
export const EXPLORER_URL_PROPERTY = {
  type: String,
  nullable: true,
  example: 'https://basescan.org/tx/0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c',
  description: "The transaction's page on the chain's block explorer (`<CHAIN>_EXPLORER_TX_URL`); null without a hash or where the chain has no explorer",
};

export class VaultTransactionDto {
  @ApiProperty({ example: 'vtx_5b6c7d8e9f0a1b2c3d4e5f60', pattern: '^vtx_[0-9a-f]{24}$' })
  vaultTransactionId: string;

  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty({ enum: VAULT_DIRECTIONS, description: '`deposit` into the vault, or `transfer` out of it' })
  direction: string;

  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: 'USDC' })
  asset: string;

  @ApiProperty({ example: 100, description: 'USDC' })
  amount: number;

  @ApiProperty({ example: 0, description: 'USDC the business paid for a transfer out (0 for a deposit)' })
  networkFee: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A',
    description: 'The sender; null for USDC minted to the vault',
  })
  fromAddress: string | null;

  @ApiProperty({ example: '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C' })
  toAddress: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c',
    description: "The transaction's hash (Solana: its signature); null for a transfer not yet signed",
  })
  txHash: string | null;

  @ApiProperty(EXPLORER_URL_PROPERTY)
  explorerUrl: string | null;

  @ApiProperty({ example: 2, description: "Blocks (slots) on top of the transaction's, counted until it reached the chain's confirmation count" })
  confirmations: number;

  @ApiProperty({
    enum: VAULT_TRANSACTION_STATES.states,
    description:
      'A deposit: `pending` until its confirmations, then `confirmed` (credited), or `dropped` when its block left the chain first. ' +
      'A transfer: `pending`, `submitted`, then `confirmed` or `failed`.',
  })
  status: string;

  @ApiProperty({ type: String, nullable: true, example: null, description: "A transfer's reference; null for a deposit" })
  merchantReference: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was credited (a deposit) or confirmed on the chain (a transfer)' })
  confirmedAt: string | null;
}

export class VaultTransactionListEnvelopeDto {
  @ApiProperty({ example: 'Vault transactions retrieved' })
  message: string;

  @ApiProperty({ type: [VaultTransactionDto] })
  response: VaultTransactionDto[];
}

export class VaultTransactionListQuery extends ListQuery {}

/** The dashboard's view of every vault of the merchant: USDC summed over its businesses. */
export class VaultTotalsDto {
  @ApiProperty({ example: 'USDC' })
  asset: string;

  @ApiProperty({ example: 1290.5, description: 'USDC available over every business and chain' })
  available: number;

  @ApiProperty({ example: 100, description: 'USDC of deposits still waiting for their confirmations, over every business and chain' })
  pending: number;

  @ApiProperty({ type: [VaultBalanceDto], description: 'Summed over the businesses: one per chain' })
  balances: VaultBalanceDto[];
}

export class VaultTotalsEnvelopeDto {
  @ApiProperty({ example: 'Vault totals retrieved' })
  message: string;

  @ApiProperty({ type: VaultTotalsDto })
  response: VaultTotalsDto;
}

/** One business holding USDC, in the merchant-wide vault list. */
export class VaultHolderDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty({ example: 'Acme Trading Ltd' })
  businessName: string;

  @ApiProperty({ type: [VaultBalanceDto], description: 'One per chain' })
  balances: VaultBalanceDto[];
}

export class VaultHolderListEnvelopeDto {
  @ApiProperty({ example: 'Vault holders retrieved' })
  message: string;

  @ApiProperty({ type: [VaultHolderDto] })
  response: VaultHolderDto[];
}
