import { createMailSandbox, ReceivedMail } from '../../sandbox/mail/mail.server';
import { eventually } from './poll';

export interface Inbox {
  /** `SMTP_URL` for the app and the worker. */
  env: Record<string, string>;
  /** The web inbox's base URL. */
  url: string;
  /** Messages to this address, newest first. */
  messagesTo(email: string): Promise<ReceivedMail[]>;
  /** Waits for the `count`-th message to the address whose subject matches, and answers the link in it. */
  linkIn(email: string, subject: RegExp, count?: number): Promise<{ link: string; token: string; message: ReceivedMail }>;
  close(): Promise<void>;
}

/** The development SMTP server and its web inbox, on free loopback ports, as `npm start` runs it. */
export async function startInbox(): Promise<Inbox> {
  const { smtp, inbox } = createMailSandbox();
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  await inbox.listen({ port: 0, host: '127.0.0.1' });
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${(inbox.server.address() as { port: number }).port}`;
  const messagesTo = async (email: string) => (await (await fetch(`${url}/messages?to=${encodeURIComponent(email)}`)).json()) as ReceivedMail[];
  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
    url,
    messagesTo,
    linkIn: async (email, subject, count = 1) => {
      const matching = await eventually(
        async () => (await messagesTo(email)).filter((message) => subject.test(message.subject)),
        (found) => found.length >= count,
        15_000,
        100,
      );
      if (matching.length < count) throw new Error(`no message ${count} to ${email} matching ${String(subject)} (found ${matching.length})`);
      const message = matching[matching.length - count];
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      if (!link) throw new Error(`no link in "${message.subject}": ${message.text}`);
      return { link, token: new URL(link).hash.replace(/^#token=/, ''), message };
    },
    close: async () => {
      await inbox.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
