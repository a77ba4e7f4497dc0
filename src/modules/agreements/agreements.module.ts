import { Module } from '@nestjs/common';
import { AgreementsService } from './agreements.service';

@Module({
  providers: [AgreementsService],
  exports: [AgreementsService],
})
export class AgreementsModule {}
