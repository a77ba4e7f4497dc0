import { Module } from '@nestjs/common';
import { BusinessStatesService } from './business-states.service';

@Module({
  providers: [BusinessStatesService],
  exports: [BusinessStatesService],
})
export class BusinessStatesModule {}
