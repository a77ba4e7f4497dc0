/** What other modules may use of the accounts module. */
export { AccountsModule } from './accounts.module';
export { DashboardSessions } from './dashboard-sessions.service';
export { TeamService } from './team.service';
