import 'reflect-metadata';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { WithRouteConfig } from './route-config';

describe('WithRouteConfig', () => {
  it('keeps what every decorator of a handler puts in its route config', () => {
    class Controller {
      @WithRouteConfig({ caller: { kind: 'merchant' } })
      @WithRouteConfig({ idempotency: { mode: 'required' } })
      handle(): void {}
    }
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, Object.getOwnPropertyDescriptor(Controller.prototype, 'handle')!.value as object)).toEqual({
      caller: { kind: 'merchant' },
      idempotency: { mode: 'required' },
    });
  });
});
