/**
 * Faxes leave through one HTTP fax gateway (issue 20; decision 0025): POST FAX_GATEWAY_URL with the PDF, the number
 * and our reference, `Authorization: Bearer FAX_GATEWAY_KEY`; a 2xx answer with the gateway's `id` means accepted.
 * Without a gateway the dev transport writes the PDF under DATA_DIR/dev-fax, which is how a developer reads it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type OutboundGuard, OutboundRefusedError } from './outbound/guard.ts';

export interface Fax {
  /** The recipient's fax number as the practice gave it. */
  to: string;
  pdf: Buffer;
  /** Our id of the notice: the gateway may use it to refuse a duplicate. */
  reference: string;
}

/** A refusal the gateway will give again on a retry (a bad number, a bad key): the notice is given up at once. */
export class PermanentFaxError extends Error {
  override name = 'PermanentFaxError';
}

export interface FaxTransport {
  name: string;
  /** Answers the gateway's id of the accepted fax; throws when it was not accepted. */
  send(fax: Fax): Promise<string>;
}

/** Digits only, with the US country code: what fax gateways dial. */
export function dialable(number: string): string {
  const digits = number.replace(/\D/g, '');
  return digits.length === 10 ? `+1${digits}` : `+${digits}`;
}

export function httpFaxTransport(options: {
  url: string;
  key: string;
  timeoutMs: number;
  /** The outbound guard's fetch: the gateway is called through the one door (an internal one needs OUTBOUND_ALLOWED_NETWORKS). */
  fetch: OutboundGuard['fetch'];
}): FaxTransport {
  return {
    name: 'http',
    async send(fax) {
      let response: Awaited<ReturnType<OutboundGuard['fetch']>>;
      try {
        response = await options.fetch(options.url, {
          method: 'POST',
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: {
            authorization: `Bearer ${options.key}`,
            'content-type': 'application/json',
            'idempotency-key': fax.reference,
          },
          body: JSON.stringify({
            to: dialable(fax.to),
            reference: fax.reference,
            document: { contentType: 'application/pdf', data: fax.pdf.toString('base64') },
          }),
        });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        // A gateway address the guard refuses is a setting to fix, not a moment to wait out.
        if (error instanceof OutboundRefusedError) {
          throw new PermanentFaxError('The fax gateway address is inside a private network (see OUTBOUND_ALLOWED_NETWORKS).');
        }
        throw new Error(
          timedOut ? `The fax gateway did not answer within ${options.timeoutMs / 1000} s.` : 'Could not reach the fax gateway.',
        );
      }
      const answer = (await response.json().catch(() => null)) as { id?: unknown } | null;
      if (response.ok) return typeof answer?.id === 'string' ? answer.id : '';
      const message = `The fax gateway answered ${response.status}.`;
      // 408 and 429 and 5xx may pass on a later try; any other refusal will not.
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw retryable ? new Error(message) : new PermanentFaxError(message);
    },
  };
}

export function devFaxTransport(options: { dataDir: string; log: FastifyBaseLogger; writeFile: boolean }): FaxTransport {
  return {
    name: 'dev',
    async send(fax) {
      options.log.info({ noticeId: fax.reference }, 'dev fax written to dev-fax/');
      if (options.writeFile) {
        const dir = path.join(options.dataDir, 'dev-fax');
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, `${fax.reference}.pdf`), fax.pdf);
      }
      return `dev-${fax.reference}`;
    },
  };
}
