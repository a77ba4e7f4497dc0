import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from '../../common/tracing/tracing';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobQueues } from '../../jobs';
import { Readiness, ReadinessModule } from '../health';
import { LedgerModule } from '../ledger';
import { LedgerVerificationModule } from '../ledger-verification';
import { MoneyCensusModule, MoneyCensusService } from '../money-census';
import { MoneyMetrics } from './money-metrics';
import { MetricsModule, OpsMetrics } from '../metrics';
import { OpsPages, OpsServer } from './ops-server';
import { PoolMetrics } from './pool-metrics';
import { QueueMetrics } from './queue-metrics';
import { queueBoard } from './queue-board';
import { stuckWork } from './stuck-work.page';

/** Which process the operator port belongs to: its port setting, and what it serves beyond every process's metrics and readiness. */
export type OpsProcess = 'api' | 'worker';
const OPS_PROCESS = Symbol('OPS_PROCESS');
const OPS_PAGES = Symbol('OPS_PAGES');

/** Opens the operator port once the application is up, and closes it with the application. */
@Injectable()
export class OpsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly server: OpsServer;
  /** Where it listens, once it does (the port is chosen by the system when configured 0). */
  port: number | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(OPS_PROCESS) private readonly process: OpsProcess,
    @Inject(OPS_PAGES) private readonly pages: OpsPages[],
    metrics: OpsMetrics,
    readiness: Readiness,
  ) {
    this.server = new OpsServer(metrics, readiness);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { host, apiPort, workerPort } = this.config.ops;
    this.port = await this.server.listen(host, this.process === 'api' ? apiPort : workerPort, this.pages);
    new Logger('Ops').log(`operator port on ${host}:${this.port}`);
  }

  /** The operator port closes, and the spans not exported yet are sent (tracing goes with the process). */
  async onApplicationShutdown(): Promise<void> {
    await this.server.close();
    await stopTracing();
  }
}

/**
 * The operator port (see docs/operations.md). Every process's serves its metrics; the worker's
 * also measures the queues, the outbox and the money, and serves the queue board and the stuck
 * work (the API processes scale out, and would each read the same).
 */
@Module({})
export class OpsModule {
  static forRoot(process: OpsProcess): DynamicModule {
    const worker = process === 'worker';
    return {
      module: OpsModule,
      imports: [MetricsModule, ReadinessModule, ...(worker ? [MoneyCensusModule, LedgerModule, LedgerVerificationModule] : [])],
      providers: [
        { provide: OPS_PROCESS, useValue: process },
        worker
          ? {
              provide: OPS_PAGES,
              inject: [JobQueues, MoneyCensusService],
              useFactory: (queues: JobQueues, census: MoneyCensusService) => [queueBoard(queues), stuckWork(census)],
            }
          : { provide: OPS_PAGES, useValue: [] },
        OpsEndpoint,
        PoolMetrics,
        ...(worker ? [QueueMetrics, MoneyMetrics] : []),
      ],
      exports: [OpsEndpoint],
    };
  }
}
