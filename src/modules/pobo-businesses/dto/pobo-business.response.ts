import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AGREEMENT_STATES, AgreementStatus, KYB_STATES, KybStatus, NAIRA_COLLECTION_STATES, NairaCollectionStatus } from '../pobo-business.states';

class WalletAddressDto {
  @ApiProperty()
  address: string;
}

class WalletsDto {
  @ApiProperty({ type: WalletAddressDto, description: 'EIP-55 checksummed address' })
  evm: WalletAddressDto;

  @ApiProperty({ type: WalletAddressDto, description: 'base58 ed25519 public key' })
  svm: WalletAddressDto;
}

class AgreementDto {
  @ApiProperty({ enum: [...AGREEMENT_STATES.states] })
  status: AgreementStatus;

  @ApiPropertyOptional({ format: 'uri', description: 'Only in the answer to create and to a fresh-link request' })
  url?: string;
}

export class PendingRequirementDto {
  @ApiProperty({ example: 'missing_document' })
  code: string;

  @ApiProperty({ example: 'company_files.organization_chart' })
  field: string;

  @ApiProperty()
  message: string;
}

class KybDto {
  @ApiProperty({ enum: [...KYB_STATES.states] })
  status: KybStatus;

  @ApiProperty({ type: [PendingRequirementDto] })
  pendingRequirements: PendingRequirementDto[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSyncedAt: string | null;
}

export interface NairaAccountDto {
  accountNumber: string;
  accountName: string;
  bankName: string;
  bankCode: string;
}

export class PoboBusinessDto {
  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty()
  businessName: string;

  @ApiProperty({ example: 'NG' })
  country: string;

  @ApiProperty()
  allowNairaCollection: boolean;

  @ApiProperty({ enum: [...NAIRA_COLLECTION_STATES.states] })
  nairaCollectionStatus: NairaCollectionStatus;

  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      accountNumber: { type: 'string', pattern: '^\\d{10}$', example: '9912345678', description: 'A 10-digit NUBAN, valid for `bankCode`' },
      accountName: { type: 'string', example: 'Acme Trading Ltd', description: "The business's name, as senders' banks show it" },
      bankName: { type: 'string', example: 'Sandbox Microfinance Bank' },
      bankCode: { type: 'string', pattern: '^\\d{3}$', example: '999', description: 'CBN code of the bank holding the account' },
    },
    description:
      "The business's own Naira account, where its customers pay it: every transfer into it is a collection credited to the merchant's balance. " +
      'Set once `nairaCollectionStatus` is `active`; null before, and once the account was closed (then `allowNairaCollection` is false and the status `not_requested`).',
  })
  nairaAccount: NairaAccountDto | null;

  @ApiProperty({ type: WalletsDto })
  wallets: WalletsDto;

  @ApiProperty({ type: AgreementDto })
  agreement: AgreementDto;

  @ApiProperty({ type: KybDto })
  kyb: KybDto;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class PoboBusinessEnvelopeDto {
  @ApiProperty({ example: 'Business retrieved' })
  message: string;

  @ApiProperty({ type: PoboBusinessDto })
  response: PoboBusinessDto;
}

export class PoboBusinessListEnvelopeDto {
  @ApiProperty({ example: 'Businesses retrieved' })
  message: string;

  @ApiProperty({ type: [PoboBusinessDto] })
  response: PoboBusinessDto[];
}

/** A business as the answer to create shows it: the documents' example. */
export const POBO_BUSINESS_EXAMPLE = {
  poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b',
  businessName: 'Acme Trading Ltd',
  country: 'NG',
  allowNairaCollection: true,
  nairaCollectionStatus: 'not_requested',
  nairaAccount: null,
  wallets: {
    evm: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    svm: { address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  },
  agreement: { status: 'pending', url: 'https://api.example.com/agreements/3q2-Xb8dJvP0s9Zq1YwT7kLmN4rA6cE5uH0iG2fB1oS' },
  kyb: { status: 'agreement_pending', pendingRequirements: [], lastSyncedAt: null },
  createdAt: '2026-11-20T09:30:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
};
