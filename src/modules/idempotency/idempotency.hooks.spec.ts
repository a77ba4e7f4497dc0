import type { INestApplication } from '@nestjs/common';
import { fastify } from 'fastify';
import { ANSWER } from '../../common/http/answer';
import { installIdempotency } from './idempotency.hooks';
import { IDEMPOTENCY_ROUTE } from './idempotent.decorator';

describe('idempotent routes', () => {
  const app = { get: () => ({}) } as unknown as INestApplication;
  const idempotent = { [IDEMPOTENCY_ROUTE]: { mode: 'required', successStatus: 201 } };

  it('refuses at boot an idempotent route that declares no success message: its stored answer could not be built', async () => {
    const instance = fastify();
    installIdempotency(app, instance);
    expect(() => instance.post('/things', { config: idempotent as never }, () => 'ok')).toThrow('POST /things is @Idempotent but declares no @Answer message');
    instance.post('/answered', { config: { ...idempotent, [ANSWER]: 'Thing created' } as never }, () => 'ok');
    await instance.ready();
    await instance.close();
  });
});
