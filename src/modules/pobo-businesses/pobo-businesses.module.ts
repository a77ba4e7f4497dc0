import { EventsModule } from '../events';
import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusinessStatusHistoryEntity } from './business-status-history.entity';
import { PoboBusinessEntity } from './pobo-business.entity';
import { Module } from '@nestjs/common';
import { AgreementsModule } from '../agreements';
import { AuditModule } from '../audit';
import { IdempotencyModule } from '../idempotency';
import { WalletsModule } from '../wallets';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { PoboBusinessStates } from './pobo-business-states.service';
import { PoboBusinessesController } from './pobo-businesses.controller';
import { PoboBusinessesRepository } from './pobo-businesses.repository';
import { PoboBusinessesService } from './pobo-businesses.service';

/** Owns `pobo_businesses` and `business_status_history`. */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([BusinessStatusHistoryEntity, PoboBusinessEntity]),
    AgreementsModule,
    AuditModule,
    WalletsModule,
    IdempotencyModule,
    EventsModule,
  ],
  controllers: [PoboBusinessesController],
  providers: [PoboBusinessesService, PoboBusinessesRepository, PoboBusinessStates, PoboBusinessAgreementService],
  exports: [PoboBusinessesService, PoboBusinessStates, PoboBusinessAgreementService],
})
export class PoboBusinessesModule {}
