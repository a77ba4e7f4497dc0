/** A message for one person: plain text, the one form every client shows the same. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; the worker's jobs call it, never a request (which writes to the outbox instead). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export const MAILER = Symbol('MAILER');
