import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionEntity } from './collection.entity';
import { NairaAccountEntity } from './naira-account.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { BankRailModule } from '../bank-rail';
import { IdempotencyModule } from '../idempotency';
import { LedgerModule } from '../ledger';
import { PoboBusinessesModule } from '../pobo-businesses';
import { CollectionsController, NairaTestHelpersController } from './collections.controller';
import { CollectionsRepository } from './collections.repository';
import { NairaCollectionsService } from './naira-collections.service';
import { NAIRA_JOBS, NAIRA_QUEUE } from './naira.jobs';
import { NairaRepository } from './naira.repository';
import { NairaService } from './naira.service';

/** Owns `naira_accounts` and `collections`: businesses' own Naira accounts, and every transfer into them. */
@Module({
  imports: [
    AuthModule,
    TypeOrmModule.forFeature([CollectionEntity, NairaAccountEntity]),
    PoboBusinessesModule,
    BankRailModule,
    LedgerModule,
    IdempotencyModule,
    JobsModule.forFeature(NAIRA_QUEUE, Object.values(NAIRA_JOBS)),
  ],
  controllers: [CollectionsController, NairaTestHelpersController],
  providers: [NairaService, NairaRepository, NairaCollectionsService, CollectionsRepository],
  exports: [NairaService, NairaCollectionsService],
})
export class NairaModule {}
