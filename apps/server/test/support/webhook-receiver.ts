/** A pharmacy's webhook receiver on a local port: verifies every signature with the Standard Webhooks library. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Whether the signature verified against the secret(s) the receiver knew at the time. */
  verified: boolean;
  /** What the receiver answered. */
  answered: number;
  /** When it arrived (ms since the epoch). */
  receivedAt: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secrets it accepts (set after registering the endpoint). */
  secrets: string[];
  /** What to answer to the n-th request (0-based); 204 by default. */
  answer: (n: number, id: string) => number;
  /** Resolves with the first delivery once one has arrived (an event to wait on, not a poll). */
  first(): Promise<Received>;
  /** Resolves with the first delivery, arrived or to come, that `matches` (an event too). */
  when(matches: (delivery: Received) => boolean): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    answer: () => 204,
    first: () => receiver.when(() => true),
    when: (matches) => {
      const found = receiver.received.find(matches);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ matches, resolve }));
    },
    close: async () => undefined,
  };
  const waiting: { matches: (delivery: Received) => boolean; resolve: (delivery: Received) => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      const verified = receiver.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const answered = verified ? receiver.answer(receiver.received.length, headers['webhook-id']) : 401;
      const delivery: Received = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        verified,
        answered,
        receivedAt: Date.now(),
      };
      receiver.received.push(delivery);
      for (const wait of waiting.splice(0)) {
        if (wait.matches(delivery)) wait.resolve(delivery);
        else waiting.push(wait);
      }
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
