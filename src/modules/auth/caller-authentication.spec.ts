import type { INestApplication } from '@nestjs/common';
import { fastify } from 'fastify';
import { CALLER } from './caller.decorator';
import { installCallerAuthentication } from './caller-auth.hook';

/** The boot check: every route says how it is called, or the server does not start. */
describe('caller declarations', () => {
  const app = { get: () => ({}) } as unknown as INestApplication;
  const railSecrets = { bank_rail: 'a', bridge_rail: 'b', payout_rail: 'c' };

  function server() {
    const instance = fastify();
    installCallerAuthentication(app, instance, {
      railSecrets,
      sessions: { authenticate: () => Promise.reject(new Error('no sessions here')) },
      extraPublic: (url) => url.startsWith('/openapi.'),
    });
    return instance;
  }

  it('refuses a route whose handler declares no caller', async () => {
    const instance = server();
    expect(() => instance.get('/api/merchant/undeclared', () => 'ok')).toThrow('GET /api/merchant/undeclared declares no caller');
    await instance.close();
  });

  it('takes declared routes, their HEAD twins, and the library routes named public', async () => {
    const instance = server();
    instance.get('/api/merchant/things', { config: { [CALLER]: { kind: 'merchant' } } }, () => 'ok');
    instance.post('/api/rails/bank/events', { config: { [CALLER]: { kind: 'rail', rail: 'bank_rail' } } }, () => 'ok');
    instance.get('/openapi.json', () => ({}));
    await instance.ready();
    expect(instance.hasRoute({ method: 'HEAD', url: '/api/merchant/things' })).toBe(true);
    await instance.close();
  });
});
