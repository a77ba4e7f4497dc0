/** What other modules may use of the mail module. */
export { MailModule } from './mail.module';
export { MAILER } from './mailer';
export type { Mailer, MailMessage } from './mailer';
