import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobHandler } from '../../jobs';
import { LEDGER_VERIFICATION_JOBS } from './ledger-verification.jobs';
import { LedgerVerificationService } from './ledger-verification.service';

/** The worker's own run of the verification, on its schedule. */
@Injectable()
export class LedgerVerificationSchedule {
  private readonly logger = new Logger('LedgerVerification');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verification: LedgerVerificationService,
  ) {}

  /**
   * Skipped when a run (the schedule's or `ledger:verify`) finished within the last 90% of the
   * interval: BullMQ runs a new schedule's first job at once, so every start of a worker with a
   * fresh scheduler would otherwise read the whole ledger again.
   */
  @JobHandler(LEDGER_VERIFICATION_JOBS.verify)
  async verify(): Promise<void> {
    const last = await this.verification.latest();
    if (last && Date.now() - last.finished_at.getTime() < this.config.ops.ledgerVerifyIntervalMs * 0.9) return;
    const report = await this.verification.verify('schedule');
    if (!report.ok) {
      const found = Object.entries(report.problems)
        .filter(([, list]) => list.length > 0)
        .map(([name, list]) => `${name} ${list.length}`);
      this.logger.error(`ledger verification failed: ${found.join(', ')}`);
    }
  }
}
