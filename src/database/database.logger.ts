import { Logger } from '@nestjs/common';
import { AbstractLogger, LogLevel, LogMessage, QueryRunner } from 'typeorm';

/**
 * TypeORM's logging through Nest's logger, with every query's parameters left out: they hold
 * personal data, token hashes and, for documents, megabytes of bytes. The statement text is ours.
 */
export class DatabaseLogger extends AbstractLogger {
  private readonly logger = new Logger('Database');

  override logQueryError(error: string | Error, query: string): void {
    this.logger.error(`query failed: ${error instanceof Error ? error.message : error} -- ${query}`);
  }

  override logQuerySlow(time: number, query: string): void {
    this.logger.warn(`query took ${time} ms: ${query}`);
  }

  protected writeLog(level: LogLevel, message: LogMessage | LogMessage[], _queryRunner?: QueryRunner): void {
    for (const { message: text } of Array.isArray(message) ? message : [message]) {
      if (level === 'warn') this.logger.warn(String(text));
      else if (level === 'error') this.logger.error(String(text));
      else if (level !== 'query') this.logger.log(String(text));
    }
  }
}
