import { AuthModule } from '../auth';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEntryEntity } from './audit-entry.entity';
import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit-log.service';
import { AuditRepository } from './audit.repository';

/** Owns `audit_log`: what changed from the dashboard, by whom, from where. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([AuditEntryEntity]), IdempotencyModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
