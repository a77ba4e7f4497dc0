import { Module } from '@nestjs/common';
import { AgreementsRepository } from './agreements.repository';
import { AgreementsService } from './agreements.service';

@Module({
  providers: [AgreementsService, AgreementsRepository],
  exports: [AgreementsService],
})
export class AgreementsModule {}
