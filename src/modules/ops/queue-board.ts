import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { JobQueues } from '../../jobs';
import type { OpsPages } from './ops-server';

export const QUEUE_BOARD_PATH = '/queues';

/**
 * The queue board (bull-board) at `/queues` of the worker's operator port: every queue's jobs by
 * state, their data and failures, and retry or removal of a job. Job payloads are ids only, so
 * the board shows nothing a log line could not.
 */
export function queueBoard(queues: JobQueues): OpsPages {
  return async (fastify) => {
    const adapter = new FastifyAdapter();
    createBullBoard({
      queues: queues.all().map((queue) => new BullMQAdapter(queue)),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Merchant Payments jobs' } },
    });
    adapter.setBasePath(QUEUE_BOARD_PATH);
    await fastify.register(adapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  };
}
