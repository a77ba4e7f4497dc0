import type { FastifyReply } from 'fastify';
import { html, pageDocument, SafeHtml } from '../../common/html/html';
import type { MoneyCensusService } from '../money-census';
import type { OpsPages } from './ops-server';

export const STUCK_WORK_PATH = '/stuck';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1a1d21}main{max-width:72rem;margin:0 auto;padding:1rem}
.brand{font-weight:600}.card{background:#fff;border:1px solid #d9dde3;border-radius:8px;padding:1rem;overflow-x:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e6e9ee;white-space:nowrap}
a{color:#0b57d0}`;

/** The age of a step, as an operator reads it. */
function age(since: Date, now = Date.now()): string {
  const minutes = Math.floor((now - since.getTime()) / 60_000);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The stuck-work view at `/stuck` of the worker's operator port: every money object still in a
 * step `STUCK_AFTER_MS` after it began, oldest first, each linking to its status history at
 * `/stuck/{kind}/{id}`.
 */
export function stuckWork(census: MoneyCensusService): OpsPages {
  return (fastify) => {
    fastify.get(STUCK_WORK_PATH, async (_request, reply) => {
      const rows = await census.stuck();
      const body = rows.length
        ? html`<table>
<thead><tr><th scope="col">Kind</th><th scope="col">Id</th><th scope="col">Merchant</th><th scope="col">Status</th><th scope="col">In this step since</th><th scope="col">For</th></tr></thead>
<tbody>${rows.map(
            (row) =>
              html`<tr><td>${row.kind}</td><td><a href="${`${STUCK_WORK_PATH}/${row.kind}/${row.id}`}">${row.id}</a></td><td>${row.merchant_id}</td><td>${row.status}</td><td>${row.since.toISOString()}</td><td>${age(row.since)}</td></tr>`,
          )}</tbody></table>`
        : html`<p>Nothing is stuck.</p>`;
      return send(reply, 'Stuck work', html`<h1>Stuck work</h1><p>${rows.length} money object(s) past their step's expected time, oldest first.</p>${body}`);
    });
    fastify.get<{ Params: { kind: string; id: string } }>(`${STUCK_WORK_PATH}/:kind/:id`, async (request, reply) => {
      const { kind, id } = request.params;
      const object = await census.history(kind, id);
      if (!object) return reply.code(404).type('text/plain').send('no such money object');
      return send(
        reply,
        `History of ${id}`,
        html`<h1>${kind} ${id}</h1><p>Created ${object.createdAt.toISOString()}, now <strong>${object.status}</strong>. <a href="${STUCK_WORK_PATH}">All stuck work</a></p>
<table><thead><tr><th scope="col">At</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Cause</th></tr></thead>
<tbody>${object.moves.map((move) => html`<tr><td>${move.created_at}</td><td>${move.from_status}</td><td>${move.to_status}</td><td>${move.cause}</td></tr>`)}</tbody></table>`,
      );
    });
    return Promise.resolve();
  };
}

function send(reply: FastifyReply, title: string, content: SafeHtml): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(pageDocument(title, STYLE, content));
}
