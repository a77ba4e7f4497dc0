import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountTokenEntity } from './account-token.entity';
import { DashboardSessionEntity } from './dashboard-session.entity';
import { InvitationEntity } from './invitation.entity';
import { RecoveryCodeEntity } from './recovery-code.entity';
import { TeamSettingsEntity } from './team-settings.entity';
import { UserEntity } from './user.entity';
import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs';
import { AuditModule } from '../audit';
import { AuthModule, MerchantAuthModule } from '../auth';
import { MailModule } from '../mail';
import { AccountLinks } from './account-links.service';
import { AccountsController } from './accounts.controller';
import { ACCOUNTS_JOBS, ACCOUNTS_QUEUE } from './accounts.jobs';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeysSetup } from './api-keys-setup.service';
import { ApiKeysController } from './api-keys.controller';
import { DashboardSessions } from './dashboard-sessions.service';
import { TeamController } from './team.controller';
import { TeamService } from './team.service';
import { TwoFactorController } from './two-factor.controller';
import { TwoFactor } from './two-factor.service';

/**
 * Owns `users`, `dashboard_sessions`, `account_tokens`, `invitations`, `recovery_codes` and
 * `team_settings`: the Merchant Dashboard's accounts, sessions, second factors and teams, and its
 * setup endpoints (API keys are the auth module's; this module manages them through it).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AccountTokenEntity, DashboardSessionEntity, InvitationEntity, RecoveryCodeEntity, TeamSettingsEntity, UserEntity]),
    AuthModule,
    MerchantAuthModule,
    AuditModule,
    MailModule,
    JobsModule.forFeature(ACCOUNTS_QUEUE, Object.values(ACCOUNTS_JOBS)),
  ],
  controllers: [AccountsController, TeamController, TwoFactorController, ApiKeysController],
  providers: [AccountsRepository, AccountsService, DashboardSessions, AccountLinks, TeamService, TwoFactor, ApiKeysSetup],
  exports: [DashboardSessions, TeamService],
})
export class AccountsModule {}
