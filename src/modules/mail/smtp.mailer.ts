import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { Mailer, MailMessage } from './mailer';

/**
 * Mail over SMTP (`SMTP_URL`) with pooled connections. A message the server does not accept
 * throws, so the job that sent it is retried with backoff.
 */
@Injectable()
export class SmtpMailer implements Mailer, OnModuleDestroy {
  private readonly transport: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const timeout = config.providerTimeoutMs;
    this.transport = createTransport({
      url: config.mail.smtpUrl,
      pool: true,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.config.mail.from, to: message.to, subject: message.subject, text: message.text });
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
