import type { AddressInfo } from 'node:net';
import { envInt, runSandbox, SANDBOX_HOST, startSandbox } from '../common/run';
import { createMailSandbox } from './mail.server';

/**
 * `node -r ts-node/register/transpile-only sandbox/mail/main.ts`
 * (or `node dist/sandbox/mail/main.js` after `npm run build`).
 */
startSandbox('mail', async () => {
  const smtpPort = envInt('SANDBOX_SMTP_PORT', 1025, 0, 65535);
  const inboxPort = envInt('SANDBOX_INBOX_PORT', 1080, 0, 65535);
  const { smtp, inbox } = createMailSandbox();
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(smtpPort, SANDBOX_HOST, () => resolve());
  });
  inbox.addHook('onClose', (_instance, done) => smtp.close(done));
  const listening = (smtp.server.address() as AddressInfo).port;
  await runSandbox('mail', inbox, inboxPort, `SMTP on ${SANDBOX_HOST}:${listening}; open this address to read what was sent`);
});
