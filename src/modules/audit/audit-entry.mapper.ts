import type { AuditRow } from './audit.repository';
import type { AuditEntryDto } from './dto/audit-entry.dto';

export function mapAuditEntry(row: AuditRow): AuditEntryDto {
  return {
    auditEntryId: row.id,
    action: row.action,
    objectId: row.objectId,
    user: row.userId === null && row.userEmail === null ? null : { userId: row.userId, email: row.userEmail },
    ip: row.ip,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  };
}
