/** What other modules may use of the audit module. */
export { AuditModule } from './audit.module';
export { AuditLog, auditActor } from './audit-log.service';
export type { AuditAction, AuditActor } from './audit-log.service';
