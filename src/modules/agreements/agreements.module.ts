import { TypeOrmModule } from '@nestjs/typeorm';
import { AgreementAcceptanceEntity } from './agreement-acceptance.entity';
import { AgreementLinkEntity } from './agreement-link.entity';
import { Module } from '@nestjs/common';
import { AgreementsRepository } from './agreements.repository';
import { AgreementsService } from './agreements.service';

@Module({
  imports: [TypeOrmModule.forFeature([AgreementAcceptanceEntity, AgreementLinkEntity])],
  providers: [AgreementsService, AgreementsRepository],
  exports: [AgreementsService],
})
export class AgreementsModule {}
