import { Module } from '@nestjs/common';
import { AuthModule, MerchantAuthModule } from '../auth';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { DashboardSessions } from './dashboard-sessions.service';

/** Owns `users` and `dashboard_sessions`: the Merchant Dashboard's accounts and their sessions. */
@Module({
  imports: [AuthModule, MerchantAuthModule],
  controllers: [AccountsController],
  providers: [AccountsRepository, AccountsService, DashboardSessions],
  exports: [DashboardSessions],
})
export class AccountsModule {}
