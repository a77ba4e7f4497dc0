import { Module } from '@nestjs/common';
import { PoboBusinessesModule } from '../pobo-businesses';
import { AgreementPageController } from './agreement-page.controller';
import { AgreementPageService } from './agreement-page.service';

/** The HTML page behind `agreement.url`. Owns no table: acceptance goes through the business module. */
@Module({
  imports: [PoboBusinessesModule],
  controllers: [AgreementPageController],
  providers: [AgreementPageService],
})
export class AgreementPageModule {}
