import { Module } from '@nestjs/common';
import { AgreementsModule } from '../agreements/agreements.module';
import { AuthModule } from '../auth/auth.module';
import { WalletsModule } from '../wallets/wallets.module';
import { PoboBusinessesController } from './pobo-businesses.controller';
import { PoboBusinessesRepository } from './pobo-businesses.repository';
import { PoboBusinessesService } from './pobo-businesses.service';

@Module({
  imports: [AuthModule, AgreementsModule, WalletsModule],
  controllers: [PoboBusinessesController],
  providers: [PoboBusinessesService, PoboBusinessesRepository],
  exports: [PoboBusinessesService],
})
export class PoboBusinessesModule {}
