import { Module } from '@nestjs/common';
import { CrossBorderRailsModule } from '../cross-border-rails';
import { LedgerModule } from '../ledger';
import { InternationalIntentsRepository } from './international-intents.repository';
import { RailReconciliationService } from './rail-reconciliation.service';

/**
 * The reconciliation of the ledger with the cross-border rails, on its own so that `ledger:verify`
 * gets it without the pipeline's queues.
 */
@Module({
  imports: [CrossBorderRailsModule, LedgerModule],
  providers: [RailReconciliationService, InternationalIntentsRepository],
  exports: [RailReconciliationService],
})
export class RailReconciliationModule {}
