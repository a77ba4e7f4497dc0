import { Module } from '@nestjs/common';
import { BusinessStatesModule } from '../business-states/business-states.module';
import { AgreementPageController } from './agreement-page.controller';
import { AgreementPageService } from './agreement-page.service';
import { AgreementsService } from './agreements.service';

@Module({
  imports: [BusinessStatesModule],
  controllers: [AgreementPageController],
  providers: [AgreementsService, AgreementPageService],
  exports: [AgreementsService],
})
export class AgreementsModule {}
