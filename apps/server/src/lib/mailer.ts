/**
 * Outgoing mail goes through the outbox table in the caller's transaction, then is delivered. Without
 * SMTP (the default) delivery is the dev transport: a log line and a line in DATA_DIR/dev-mail.jsonl,
 * which is how a developer (or an end-to-end test) reads an MFA code or reset link.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.ts';
import { outbox } from '../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for, e.g. 'mfa-code' or 'password-reset'. */
  kind: string;
}

export interface Mailer {
  /** Records the mail in the outbox inside the caller's transaction. */
  enqueue(db: Executor, mail: Mail): Promise<void>;
  /** Delivers a recorded mail; called after the transaction commits. */
  deliver(mail: Mail): Promise<void>;
}

/** Records a mail in the outbox inside the caller's transaction (every transport does this first). */
export async function enqueueMail(db: Executor, mail: Mail): Promise<void> {
  await db.insert(outbox).values({ channel: 'email', recipient: mail.to, payload: mail, status: 'pending' });
}

export function devMailer(options: { dataDir: string; log: FastifyBaseLogger; writeFile: boolean }): Mailer {
  return {
    enqueue: enqueueMail,
    async deliver(mail) {
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
