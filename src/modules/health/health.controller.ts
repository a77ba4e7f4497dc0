import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ServiceUnavailableError } from '../../common/errors/app-error';
import { ApiPublicOperation } from '../../common/http/api-docs';
import { PublicRoute } from '../auth';
import { Readiness } from './readiness';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

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
      "Load balancers route traffic to the process only while this answers 200. It does not say which dependency is down: the operator port's `/ready` does. No key; limited per client IP like every public route, since it asks PostgreSQL and Redis.",
    success: { status: 200, description: '`{ "status": "ok" }`', example: { status: 'ok' } },
    errors: ['bad_request', 'rate_limited', 'service_unavailable'],
  })
  async ready(): Promise<{ status: 'ok' }> {
    const states = await this.readiness.check();
    if (!states.database || !states.redis) throw new ServiceUnavailableError('Not ready');
    return { status: 'ok' };
  }
}
