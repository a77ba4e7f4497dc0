import { createHash, randomBytes } from 'node:crypto';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ServiceUnavailableError } from '../../common/errors/app-error';
import { trimmed } from '../../common/validation/transforms';
import { ProviderError } from '../../common/providers/provider-http-client';

/**
 * The rail's idempotency key of a test helper's transfer: derived from the merchant's
 * Idempotency-Key when it sent one (a retry is the same transfer at the rail), else new each call.
 */
export function testTransferKey(merchantKey: { merchantId: string; key: string } | undefined): string {
  return merchantKey ? createHash('sha256').update(`${merchantKey.merchantId}\n${merchantKey.key}`).digest('hex') : randomBytes(16).toString('hex');
}

/** The sender of a test helper's transfer when the merchant names none. */
export const TEST_SENDER = { bankName: 'Sandbox Sender Bank', accountNumber: '0123456789' };

/**
 * A bank rail call a merchant's request waits for (a test helper's transfer): a rail that is down
 * or slow is a 503 to retry with the same Idempotency-Key; one that refuses our request is our
 * bug (a 500, logged).
 */
export async function callRailForRequest<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderError && err.retryable) throw new ServiceUnavailableError('The bank rail is unavailable; retry with the same Idempotency-Key');
    throw err;
  }
}

/**
 * The sender fields of a test helper's body (each test helper's DTO extends this), with what is
 * sent when each is absent.
 */
export function TestSenderFields(whenAbsent: { bankName: string; accountNumber: string }) {
  class TestSender {
    @ApiPropertyOptional({ example: 'Guaranty Trust Bank', maxLength: 100, description: whenAbsent.bankName })
    @IsOptional()
    @Transform(trimmed)
    @IsString()
    @IsNotEmpty()
    @MaxLength(100)
    senderBankName?: string;

    @ApiPropertyOptional({ example: '0123456789', pattern: '^\\d{10}$', description: whenAbsent.accountNumber })
    @IsOptional()
    @IsString()
    @Matches(/^\d{10}$/, { message: 'senderAccountNumber must be 10 digits' })
    senderAccountNumber?: string;
  }
  return TestSender;
}
