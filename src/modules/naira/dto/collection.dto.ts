import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_MAJOR_AMOUNT } from '../../../common/money/money';
import { IsMoneyAmount } from '../../../common/validation/money.validator';
import { IsTimestamp } from '../../../common/validation/timestamp.validator';
import { trimmed } from '../../../common/validation/transforms';
import { ListQuery } from '../../../common/http/list.query';
import { TestSenderFields } from '../../bank-rail';
import { COLLECTION_RETURN_REASONS } from '../collection.entity';

export class CollectionDto {
  @ApiProperty({ example: 'col_3e4f5a6b7c8d9e0f1a2b3c4d', pattern: '^col_[0-9a-f]{24}$' })
  collectionId: string;

  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty({ example: 125000.5, description: 'NGN in major units' })
  amount: number;

  @ApiProperty({ example: 'NGN' })
  currency: string;

  @ApiProperty({ type: String, nullable: true, example: 'Chidi Okafor', description: "The sender's name as its bank gave it; null when it gave none" })
  senderName: string | null;

  @ApiProperty({ example: 'Guaranty Trust Bank' })
  senderBankName: string;

  @ApiProperty({ example: '0123456789' })
  senderAccountNumber: string;

  @ApiProperty({ type: String, nullable: true, example: 'Invoice 2231', description: 'What the sender wrote on the transfer' })
  narration: string | null;

  @ApiProperty({ enum: ['credited', 'returned'], description: "`credited` to the merchant's NGN balance, or `returned` to its sender" })
  status: string;

  @ApiProperty({
    enum: [...COLLECTION_RETURN_REASONS, null],
    nullable: true,
    type: String,
    description: 'Why a returned transfer was sent back; null when credited',
  })
  returnReason: string | null;

  @ApiProperty({ format: 'date-time' })
  receivedAt: string;
}

export class CollectionEnvelopeDto {
  @ApiProperty({ example: 'Collection retrieved' })
  message: string;

  @ApiProperty({ type: CollectionDto })
  response: CollectionDto;
}

export class CollectionListEnvelopeDto {
  @ApiProperty({ example: 'Collections retrieved' })
  message: string;

  @ApiProperty({ type: [CollectionDto] })
  response: CollectionDto[];
}

/** `?limit=&cursor=` and the window of `receivedAt`: from `receivedAfter` (inclusive) to `receivedBefore` (exclusive). */
export class CollectionListQuery extends ListQuery {
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Only collections received at or after this time' })
  @IsOptional()
  @IsTimestamp()
  receivedAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'Only collections received before this time' })
  @IsOptional()
  @IsTimestamp()
  receivedBefore?: string;
}

export class SendNairaTransferDto extends TestSenderFields({ bankName: 'A fixed test bank when absent', accountNumber: 'A fixed test account when absent' }) {
  @ApiProperty({ example: 125000.5, minimum: 0.01, maximum: MAX_MAJOR_AMOUNT, description: 'NGN in major units' })
  @IsMoneyAmount('NGN')
  amount: number;

  @ApiPropertyOptional({ example: 'Chidi Okafor', maxLength: 100 })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  senderName?: string;

  @ApiPropertyOptional({ example: 'Invoice 2231', maxLength: 100 })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxLength(100)
  narration?: string;
}

export class NairaTransferSentDto {
  @ApiProperty({ example: 'trf_0a1b2c3d4e5f60718293a4b5', description: "The rail's id of the transfer" })
  transferId: string;

  @ApiProperty({ example: 'pobo_4c1f0a9e2b7d3c5e8f601a2b' })
  poboUserId: string;

  @ApiProperty({ example: '9912345678' })
  accountNumber: string;

  @ApiProperty({ example: 125000.5 })
  amount: number;
}

export class NairaTransferSentEnvelopeDto {
  @ApiProperty({ example: 'Test transfer sent' })
  message: string;

  @ApiProperty({ type: NairaTransferSentDto })
  response: NairaTransferSentDto;
}
