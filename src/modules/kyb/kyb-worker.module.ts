import { Module } from '@nestjs/common';
import { BusinessStatesModule } from '../business-states/business-states.module';
import { NairaModule } from '../naira/naira.module';
import { NairaProcessor } from '../naira/naira.processor';
import { KybSubmissionService } from './kyb-submission.service';
import { KybSweepService } from './kyb-sweep.service';
import { KybModule } from './kyb.module';
import { KybProcessor } from './kyb.processor';

/** The queue processors, loaded only by the worker process. */
@Module({
  imports: [KybModule, NairaModule, BusinessStatesModule],
  providers: [KybProcessor, KybSubmissionService, KybSweepService, NairaProcessor],
})
export class KybWorkerModule {}
