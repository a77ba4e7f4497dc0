import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, Max } from 'class-validator';
import { IsMoneyAmount } from '../../../common/validation/money.validator';
import { CHAIN_NAMES, type ChainName } from '../../../config/vault-chains.config';
import { CHAIN } from './vault.dto';

/** The most one test deposit sends: what the local faucet mints at once. */
export const MAX_TEST_DEPOSIT_USDC = 1_000_000;

export class SendTestDepositDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  @IsString()
  @IsNotEmpty()
  poboUserId: string;

  @ApiProperty(CHAIN)
  @IsIn(CHAIN_NAMES)
  chain: ChainName;

  @ApiProperty({ example: 250.75, minimum: 0.000001, maximum: MAX_TEST_DEPOSIT_USDC, description: 'USDC, at most 6 decimal places' })
  @IsMoneyAmount('USDC')
  @Max(MAX_TEST_DEPOSIT_USDC)
  amount: number;
}

export class TestDepositSentDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: '0x9C3b5E3d1f0A2b4c6D8e0F1A3b5c7d9e1F3a5b7C', description: 'The vault address it was sent to' })
  toAddress: string;

  @ApiProperty({ example: 250.75 })
  amount: number;

  @ApiProperty({ example: '0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c', description: "The faucet's transaction" })
  txHash: string;
}

export class TestDepositSentEnvelopeDto {
  @ApiProperty({ example: 'Test deposit sent' })
  message: string;

  @ApiProperty({ type: TestDepositSentDto })
  response: TestDepositSentDto;
}

export class BlacklistAddressDto {
  @ApiProperty(CHAIN)
  @IsIn(CHAIN_NAMES)
  chain: ChainName;

  @ApiProperty({ example: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A', description: 'An address of that chain' })
  @IsString()
  @Matches(/^[0-9A-Za-z]{32,44}$/, { message: 'address must be an address of the chain' })
  address: string;
}

export class AddressBlacklistedDto {
  @ApiProperty(CHAIN)
  chain: ChainName;

  @ApiProperty({ example: '0x2f1A6b4d8c0e2F4A6b8C0d2E4F6A8B0C2d4e6f8A' })
  address: string;

  @ApiProperty({ example: '0x6b1d2f4a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c', description: "The USDC owner's transaction" })
  txHash: string;
}

export class AddressBlacklistedEnvelopeDto {
  @ApiProperty({ example: 'Address blacklisted' })
  message: string;

  @ApiProperty({ type: AddressBlacklistedDto })
  response: AddressBlacklistedDto;
}

/** A whole request, for the OpenAPI document. */
export const TEST_DEPOSIT_EXAMPLE = { poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b', chain: 'base', amount: 250.75 };
