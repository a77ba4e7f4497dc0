import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import Redis from 'ioredis';
import { ServiceUnavailableError } from '../../common/errors/app-error';
import { ApiPublicOperation } from '../../common/http/api-docs';
import { REDIS } from '../../redis/redis.module';
import { PublicRoute } from '../auth';

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
  @PublicRoute({ limited: false })
  @ApiPublicOperation({
    operationId: 'getLiveness',
    summary: 'The process is up',
    description: 'No dependency is checked: an orchestrator restarts the process when this fails. No key, no rate limit.',
    success: { status: 200, description: '`{ "status": "ok" }`', example: { status: 'ok' } },
    errors: ['bad_request'],
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @PublicRoute()
  @ApiPublicOperation({
    operationId: 'getReadiness',
    summary: 'PostgreSQL and Redis answer',
    description:
      'Load balancers route traffic to the process only while this answers 200. No key; limited per client IP like every public route, since it asks PostgreSQL and Redis.',
    success: {
      status: 200,
      description: '`{ "status": "ok", "info": { … } }`',
      example: { status: 'ok', info: { database: { status: 'up' }, redis: { status: 'up' } } },
    },
    errors: ['bad_request', 'rate_limited', 'service_unavailable'],
  })
  async ready(): Promise<unknown> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: PING_TIMEOUT_MS }), () => this.pingRedis()]);
    } catch (err) {
      const down = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      throw new ServiceUnavailableError(`Not ready: ${down.join(', ') || 'unknown'} unavailable`);
    }
  }

  private async pingRedis() {
    const indicator = this.indicators.check('redis');
    try {
      await Promise.race([this.redis.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref())]);
      return indicator.up();
    } catch {
      return indicator.down();
    }
  }
}
