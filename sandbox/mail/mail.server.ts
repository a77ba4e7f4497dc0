import { randomUUID } from 'node:crypto';
import Fastify, { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { html, pageDocument, SafeHtml } from '../../src/common/html/html';
import { PAGE_CSP } from '../../src/common/html/pages';

/** What the inbox keeps of a message; the newest first. */
export interface ReceivedMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

/** Messages kept; older ones are dropped so a long-running development stack stays small. */
const KEPT = 500;
const MAX_MESSAGE_BYTES = 1024 * 1024;
const STYLE = 'body{font:15px system-ui,sans-serif;margin:2rem;max-width:60rem}td,th{padding:.3rem .6rem;text-align:left}pre{white-space:pre-wrap}';

export interface MailSandbox {
  smtp: SMTPServer;
  /** The web inbox: a page for people, `GET /messages` (JSON, `?to=` filters) for tests. */
  inbox: FastifyInstance;
  messages: ReceivedMail[];
}

/**
 * The development SMTP server: accepts every message on plain SMTP (no TLS, any or no login) and
 * keeps it in memory, readable in a browser. Never started in production, where `SMTP_URL` names
 * a real relay.
 */
export function createMailSandbox(): MailSandbox {
  const messages: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sandbox' }),
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          messages.unshift({
            id: randomUUID(),
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: new Date().toISOString(),
          });
          messages.splice(KEPT);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });

  const inbox = Fastify({ logger: false });
  inbox.addHook('onRequest', (_request, reply, done) => {
    void reply.header('content-security-policy', PAGE_CSP);
    done();
  });
  inbox.get('/health', () => ({ status: 'ok' }));
  inbox.get<{ Querystring: { to?: string } }>('/messages', (request) => {
    const to = typeof request.query.to === 'string' ? request.query.to.toLowerCase() : undefined;
    return to === undefined ? messages : messages.filter((message) => message.to.includes(to));
  });
  inbox.delete('/messages', () => {
    messages.length = 0;
    return { deleted: true };
  });
  inbox.get('/', (_request, reply) => {
    const rows = messages.map(
      (message) =>
        html`<tr><td>${message.receivedAt}</td><td>${message.to.join(', ')}</td><td><a href="/messages/${message.id}">${message.subject}</a></td></tr>`,
    );
    const body = html`<h1>Development inbox</h1><p>${messages.length} message(s); the newest first. Nothing here leaves this machine.</p>
      <table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`;
    return reply.type('text/html; charset=utf-8').send(pageDocument('Development inbox', STYLE, body));
  });
  inbox.get<{ Params: { id: string } }>('/messages/:id', (request, reply) => {
    const message = messages.find((candidate) => candidate.id === request.params.id);
    if (!message) return reply.code(404).send({ error: 'not_found' });
    const body = html`<p><a href="/">← Inbox</a></p><h1>${message.subject}</h1>
      <p>From ${message.from} to ${message.to.join(', ')}, ${message.receivedAt}</p><pre>${linkified(message.text)}</pre>`;
    return reply.type('text/html; charset=utf-8').send(pageDocument(message.subject, STYLE, body));
  });
  return { smtp, inbox, messages };
}

/** The message's text with its web links clickable (each part escaped). */
function linkified(text: string): SafeHtml[] {
  return text.split(/(https?:\/\/\S+)/).map((part, index) => (index % 2 === 1 ? html`<a href="${part}">${part}</a>` : html`${part}`));
}
