import type { Transporter } from "nodemailer";
import type { Logger } from "pino";

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Where verification and reset e-mails go. */
export interface Mailer {
  /** `log`: the logger of the request the mail is sent for, if any (its lines carry the request id). */
  send(mail: OutgoingMail, log?: Logger): Promise<void>;
}

/**
 * SMTP through nodemailer (`smtp://` or `smtps://` URL, credentials in it when the server wants
 * them). nodemailer is loaded by `open`, so a server without SMTP does not carry it
 * (docs/decisions/0082-optional-integrations-loaded-when-configured.md).
 */
export class SmtpMailer implements Mailer {
  static async open(url: string, from: string): Promise<SmtpMailer> {
    const { createTransport } = await import("nodemailer");
    return new SmtpMailer(createTransport(url), from);
  }

  private constructor(private readonly transport: Transporter, private readonly from: string) {}
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
  async send(mail: OutgoingMail, log: Logger = this.logger): Promise<void> {
    log.warn({ subject: mail.subject }, "e-mail not sent: set SVC_SMTP_URL to send account e-mails");
  }
}
