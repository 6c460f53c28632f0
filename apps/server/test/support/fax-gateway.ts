/** A fax gateway on a local port, standing in for the real one at the network edge: records what it is sent. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentFax {
  authorization: string;
  idempotencyKey: string;
  to: string;
  reference: string;
  contentType: string;
  pdf: Buffer;
  answered: number;
}

export interface FakeFaxGateway {
  url: string;
  faxes: SentFax[];
  /** What to answer to the n-th request (0-based); 202 by default. */
  answer: (n: number) => number;
  close(): Promise<void>;
}

export async function startFaxGateway(): Promise<FakeFaxGateway> {
  const gateway: FakeFaxGateway = { url: '', faxes: [], answer: () => 202, close: async () => undefined };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        to: string;
        reference: string;
        document: { contentType: string; data: string };
      };
      const answered = gateway.answer(gateway.faxes.length);
      gateway.faxes.push({
        authorization: String(request.headers.authorization ?? ''),
        idempotencyKey: String(request.headers['idempotency-key'] ?? ''),
        to: body.to,
        reference: body.reference,
        contentType: body.document.contentType,
        pdf: Buffer.from(body.document.data, 'base64'),
        answered,
      });
      response.writeHead(answered, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answered < 300 ? { id: `fax-${gateway.faxes.length}` } : { error: 'refused' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/faxes`;
  gateway.close = () => new Promise((resolve) => server.close(() => resolve()));
  return gateway;
}
