export const AUDIT_LOG_PATH = '/api/dashboard/audit-log';
