import { fastify } from 'fastify';
import { ANSWER, installAnswers } from './answer';

describe('installAnswers', () => {
  it('wraps the successes of a route that declared its message, leaves its errors and other routes alone', async () => {
    const app = fastify();
    installAnswers(app);
    app.get('/declared', { config: { [ANSWER]: 'Thing retrieved' } as never }, () => ({ id: 'x_1' }));
    app.get('/declared-error', { config: { [ANSWER]: 'Thing retrieved' } as never }, (_request, reply) => reply.code(404).send({ message: 'Not found' }));
    app.get('/plain', () => ({ id: 'y_1' }));
    expect((await app.inject('/declared')).json()).toEqual({ message: 'Thing retrieved', response: { id: 'x_1' } });
    expect((await app.inject('/declared-error')).json()).toEqual({ message: 'Not found' });
    expect((await app.inject('/plain')).json()).toEqual({ id: 'y_1' });
    await app.close();
  });
});
