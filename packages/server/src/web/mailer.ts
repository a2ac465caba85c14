import { createTransport } from "nodemailer";
import type { Logger } from "pino";

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Where verification and reset e-mails go. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** SMTP through nodemailer (`smtp://` or `smtps://` URL, credentials in it when the server wants them). */
export class SmtpMailer implements Mailer {
  private readonly transport;
  constructor(url: string, private readonly from: string) {
    this.transport = createTransport(url);
  }
  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
  close(): void {
    this.transport.close();
  }
}

/** No SMTP configured: the mail is not sent, and the log says so (never the link: it is a credential). */
export class UnsentMailer implements Mailer {
  constructor(private readonly logger: Logger) {}
  async send(mail: OutgoingMail): Promise<void> {
    this.logger.warn({ subject: mail.subject }, "e-mail not sent: set SVC_SMTP_URL to send account e-mails");
  }
}
