/**
 * Outgoing mail goes through the outbox table in the caller's transaction, then is delivered by a
 * transport once the transaction has committed, and the outbox row records the outcome. Transports:
 * SMTP via nodemailer when SMTP_URL is set; otherwise the dev transport: a log line and a line in
 * DATA_DIR/dev-mail.jsonl, which is how a developer (or an end-to-end test) reads an MFA code or reset link.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Executor } from '../db/client.ts';
import { outbox } from '../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for, e.g. 'mfa-code' or 'password-reset'. */
  kind: string;
}

export interface MailTransport {
  name: string;
  send(mail: Mail): Promise<void>;
}

export interface Mailer {
  /** Records the mail in the outbox inside the caller's transaction; returns the outbox id. */
  enqueue(db: Executor, mail: Mail): Promise<string>;
  /**
   * Delivers a recorded mail; called after the transaction commits. A transport failure is logged and
   * recorded on the outbox row, never thrown: the caller's write has happened and must answer normally.
   */
  deliver(outboxId: string, mail: Mail): Promise<boolean>;
}

export function createMailer(db: Executor, transport: MailTransport, log: FastifyBaseLogger): Mailer {
  return {
    async enqueue(executor, mail) {
      const [row] = await executor
        .insert(outbox)
        .values({ channel: 'email', recipient: mail.to, payload: mail, status: 'pending' })
        .returning({ id: outbox.id });
      if (!row) throw new Error('outbox insert returned no row');
      return row.id;
    },
    async deliver(outboxId, mail) {
      try {
        await transport.send(mail);
        await db.update(outbox).set({ status: 'sent', sentAt: new Date() }).where(eq(outbox.id, outboxId));
        return true;
      } catch (error) {
        log.error({ err: error, mailKind: mail.kind, outboxId, transport: transport.name }, 'mail delivery failed');
        await db.update(outbox).set({ status: 'failed' }).where(eq(outbox.id, outboxId));
        return false;
      }
    },
  };
}

export function devMailTransport(options: { dataDir: string; log: FastifyBaseLogger; writeFile: boolean }): MailTransport {
  return {
    name: 'dev',
    async send(mail) {
      options.log.info({ mailKind: mail.kind, mailSubject: mail.subject }, 'dev mail delivered to dev-mail.jsonl');
      if (!options.writeFile) return;
      await mkdir(options.dataDir, { recursive: true });
      await appendFile(
        path.join(options.dataDir, 'dev-mail.jsonl'),
        `${JSON.stringify({ ...mail, at: new Date().toISOString() })}\n`,
      );
    },
  };
}

/** SMTP_URL such as smtp://user:pass@mail.example.com:587 or smtps://…:465 (nodemailer reads both). */
export const SMTP_TIMEOUTS = { connectMs: 10_000, greetingMs: 10_000, socketMs: 30_000 } as const;

export function smtpMailTransport(options: { url: string; from: string }): MailTransport & { close(): void } {
  // nodemailer waits up to 2 min to connect and 10 min on a silent socket by default; a mail (a sign-in code) that
  // cannot go in seconds should fail so the caller can say so (decision 0050).
  const transporter = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: SMTP_TIMEOUTS.connectMs,
    greetingTimeout: SMTP_TIMEOUTS.greetingMs,
    socketTimeout: SMTP_TIMEOUTS.socketMs,
  });
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transporter.close(),
  };
}
