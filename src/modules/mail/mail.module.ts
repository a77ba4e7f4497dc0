import { Module } from '@nestjs/common';
import { MAILER } from './mailer';
import { SmtpMailer } from './smtp.mailer';

/** Outgoing mail, behind `Mailer`; SMTP is the one adapter. */
@Module({
  providers: [{ provide: MAILER, useClass: SmtpMailer }],
  exports: [MAILER],
})
export class MailModule {}
