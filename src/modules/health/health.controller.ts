import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import Redis from 'ioredis';
import { ServiceUnavailableError } from '../../common/errors/app-error';
import { ErrorBodyDto } from '../../common/http/error-body.dto';
import { REDIS } from '../../redis/redis.module';

const PING_TIMEOUT_MS = 1_000;

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: TypeOrmHealthIndicator,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'The process is up (no dependency checks)' })
  @ApiOkResponse({ description: '`{ "status": "ok" }`' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'PostgreSQL and Redis answer; load balancers route traffic only then' })
  @ApiOkResponse({ description: '`{ "status": "ok", "info": { … } }`' })
  @ApiServiceUnavailableResponse({ type: ErrorBodyDto })
  async ready(): Promise<unknown> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: PING_TIMEOUT_MS }),
        () => this.pingRedis(),
      ]);
    } catch (err) {
      const down = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      throw new ServiceUnavailableError(`Not ready: ${down.join(', ') || 'unknown'} unavailable`);
    }
  }

  private async pingRedis() {
    const indicator = this.indicators.check('redis');
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref()),
      ]);
      return indicator.up();
    } catch {
      return indicator.down();
    }
  }
}
