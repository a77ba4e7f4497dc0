import { applyDecorators, CanActivate, Inject, Injectable, UseGuards } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../../config/app.config';

/** Which keys this server accepts (`API_KEY_PREFIX`): test keys move sandbox money only, and only they reach the test helpers. */
export type KeyMode = 'test' | 'live';

export function keyMode(config: Pick<AppConfig, 'apiKeyPrefix'>): KeyMode {
  return config.apiKeyPrefix === 'mk_test' ? 'test' : 'live';
}

/**
 * Test helpers exist for test keys only: a server that accepts live keys answers 404, as for a
 * route it does not have (a server accepts the keys of one mode only, `API_KEY_PREFIX`).
 */
@Injectable()
export class TestModeGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (keyMode(this.config) !== 'test') throw new AppError('route_not_found', 'Test helpers are available with test keys only');
    return true;
  }
}

export const TestModeOnly = () => applyDecorators(UseGuards(TestModeGuard));
