import { Module } from '@nestjs/common';
import { OpsMetrics } from '../metrics';
import { MAILER } from './mailer';
import { SmtpMailer } from './smtp.mailer';

/** Outgoing mail, behind `Mailer`; SMTP is the one adapter. */
@Module({
  providers: [
    SmtpMailer,
    {
      provide: MAILER,
      inject: [SmtpMailer, OpsMetrics],
      useFactory: (mailer: SmtpMailer, metrics: OpsMetrics) => metrics.thirdParties.measure('smtp', mailer),
    },
  ],
  exports: [MAILER],
})
export class MailModule {}
