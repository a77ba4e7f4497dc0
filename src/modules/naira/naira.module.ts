import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { PoboBusinessesModule } from '../pobo-businesses';
import { BankRailModule } from '../bank-rail';
import { NAIRA_JOBS, NAIRA_QUEUE } from './naira.jobs';
import { NairaRepository } from './naira.repository';
import { NairaService } from './naira.service';

/** Owns `naira_accounts`. */
@Module({
  imports: [PoboBusinessesModule, BankRailModule, JobsModule.forFeature(NAIRA_QUEUE, Object.values(NAIRA_JOBS))],
  providers: [NairaService, NairaRepository],
  exports: [NairaService],
})
export class NairaModule {}
