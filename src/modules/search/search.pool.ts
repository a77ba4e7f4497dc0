import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { CountedClient, watchPool } from '../../common/persistence/pg-pool';
import { APP_CONFIG, AppConfig } from '../../config/app.config';

/** Connections the search may hold at once: a dashboard read, never the money paths' pool's. */
const SEARCH_POOL_SIZE = 4;

/**
 * The dashboard search's own few connections, whose sessions use generic plans: the search's
 * statements match keys by ranges of parameters, for which PostgreSQL otherwise plans each
 * search again (its custom plans look cheaper than a generic one), and planning cost more than
 * the search itself. Elsewhere the service keeps PostgreSQL's own choice, so this stays apart.
 */
@Injectable()
export class SearchPool implements OnModuleDestroy {
  readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = watchPool(
      new Pool({
        connectionString: config.databaseUrl,
        max: SEARCH_POOL_SIZE,
        connectionTimeoutMillis: 2_000,
        statement_timeout: config.dbStatementTimeoutMs,
        application_name: 'merchant-api-search',
        options: '-c plan_cache_mode=force_generic_plan',
        Client: CountedClient,
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
