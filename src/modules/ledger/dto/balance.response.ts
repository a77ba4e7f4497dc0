import { ApiProperty } from '@nestjs/swagger';
import { BALANCE_TRANSACTION_TYPES } from '../balance-transaction.entity';

export class BalanceDto {
  @ApiProperty({ example: 'NGN' })
  currency: string;

  @ApiProperty({ example: 125000.5, description: 'What withdrawals and international payments may use, in major units' })
  available: number;

  @ApiProperty({ example: 20000, description: 'Held by withdrawals and international payments in flight' })
  reserved: number;
}

export class BalanceEnvelopeDto {
  @ApiProperty({ example: 'Balance retrieved' })
  message: string;

  @ApiProperty({ type: [BalanceDto] })
  response: BalanceDto[];
}

export class BalanceTransactionDto {
  @ApiProperty({ example: 'btx_5c1d0e6a7b8c9d0e1f2a3b4c', pattern: '^btx_[0-9a-f]{24}$' })
  balanceTransactionId: string;

  @ApiProperty({ enum: BALANCE_TRANSACTION_TYPES })
  type: string;

  @ApiProperty({ example: -5000, description: 'Signed, in major units: credits positive' })
  amount: number;

  @ApiProperty({ example: 'NGN' })
  currency: string;

  @ApiProperty({ example: 'wd_0a1b2c3d4e5f60718293a4b5', description: 'The payment, collection, withdrawal or international payment behind it' })
  sourceId: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'The business a collection came in for (its `poboUserId`); null for every other type',
  })
  poboUserId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class BalanceTransactionListEnvelopeDto {
  @ApiProperty({ example: 'Balance transactions retrieved' })
  message: string;

  @ApiProperty({ type: [BalanceTransactionDto] })
  response: BalanceTransactionDto[];
}
