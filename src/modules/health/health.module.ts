import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ReadinessModule } from './readiness';

/** `/health/live` and `/health/ready` on the public port; `Readiness` for the operator port's detailed one. */
@Module({
  imports: [ReadinessModule],
  controllers: [HealthController],
})
export class HealthModule {}
