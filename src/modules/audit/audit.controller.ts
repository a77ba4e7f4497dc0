import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { AuditLog } from './audit-log.service';
import { AUDIT_LOG_PATH } from './audit.routes';
import { AuditEntryDto, AuditEntryEnvelopeDto, AuditEntryListEnvelopeDto, AuditLogQuery } from './dto/audit-entry.dto';

@ApiTags('Dashboard: audit log')
@Controller(AUDIT_LOG_PATH)
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'listAuditLog',
      summary: "The merchant's audit log, newest first (owners only)",
      description:
        'Every change made from the dashboard, every login and failed login, with who, what, when and from which IP. Filter by `userId` and `action`.',
      unsafe: false,
      success: { status: 200, type: AuditEntryListEnvelopeDto, description: 'A page of the audit log', headers: LIST_HEADERS },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('Audit log retrieved')
  async list(
    @CurrentUser() user: DashboardPrincipal,
    @Query() query: AuditLogQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditEntryDto[]> {
    const { userId, action, ...page } = query;
    return sendPage(reply, await this.audit.list(user.merchantId, { userId, action }, page));
  }

  @Get(':auditEntryId')
  @DashboardOperation(
    { roles: ['owner'] },
    {
      operationId: 'getAuditEntry',
      summary: 'One entry of the audit log (owners only)',
      unsafe: false,
      success: { status: 200, type: AuditEntryEnvelopeDto, description: 'The entry' },
      errors: ['resource_not_found'],
    },
  )
  @Answer('Audit entry retrieved')
  get(@CurrentUser() user: DashboardPrincipal, @Param('auditEntryId') auditEntryId: string): Promise<AuditEntryDto> {
    return this.audit.get(user.merchantId, auditEntryId);
  }
}
