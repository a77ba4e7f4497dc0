import { Injectable, Logger } from '@nestjs/common';
import { JobHandler } from '../../jobs';
import { LEDGER_VERIFICATION_JOBS } from './ledger-verification.jobs';
import { LedgerVerificationService } from './ledger-verification.service';

/** The worker's own run of the verification, on its schedule. */
@Injectable()
export class LedgerVerificationSchedule {
  private readonly logger = new Logger('LedgerVerification');

  constructor(private readonly verification: LedgerVerificationService) {}

  @JobHandler(LEDGER_VERIFICATION_JOBS.verify)
  async verify(): Promise<void> {
    const report = await this.verification.verify('schedule');
    if (!report.ok) {
      const found = Object.entries(report.problems)
        .filter(([, list]) => list.length > 0)
        .map(([name, list]) => `${name} ${list.length}`);
      this.logger.error(`ledger verification failed: ${found.join(', ')}`);
    }
  }
}
