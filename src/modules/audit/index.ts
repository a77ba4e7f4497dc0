/** What other modules may use of the audit module. */
export { AuditModule } from './audit.module';
export { AuditLog, auditActor } from './audit-log.service';
export type { AuditAction, AuditActor } from './audit-log.service';
export { CHANGE_AUDIT, installChangeAudit } from './change-audit.hook';
export type { AuditedRequest, ChangeAudit } from './change-audit.hook';
