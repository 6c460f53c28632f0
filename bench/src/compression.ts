/**
 * Compressing a busy practice's Action Needed list (issue 45, part 6): ~224 KB of JSON (260 items) sent Brotli-
 * compressed, through our compression settings (one synchronous call up to 1 MiB) against the plugin's default on
 * this 2-core machine (streamed above 8 KiB). Two minimal Fastify servers answer the same body; only the setting
 * differs. The client asks for `br` and reads every byte.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { COMPRESSION_OPTIONS, registerCompression } from '../../apps/server/src/plugins/compression.ts';
import { interleavedRatio, load } from './measure.ts';

const DRUGS = ['Atorvastatin', 'Lisinopril', 'Metformin', 'Amlodipine', 'Levothyroxine', 'Omeprazole', 'Sertraline'];

/** A list shaped like Action Needed's: patients with their prescriptions, 260 in all. */
export function busyList(items = 260): string {
  const patients = Array.from({ length: Math.ceil(items / 2) }, (_, p) => ({
    id: randomUUID(),
    firstName: `Patient${p}`,
    lastName: `Family${p % 37}`,
    dateOfBirth: `19${50 + (p % 50)}-0${1 + (p % 9)}-1${p % 10}`,
    prescriptions: Array.from({ length: 2 }, (_, r) => ({
      id: randomUUID(),
      practiceId: 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607',
      patientID: `patient-${p}`,
      needsRefillAuth: true,
      priorAuthMethod: null,
      hcpActionRequired: false,
      dispensedNdc: null,
      prescribedNdc: `00378-${String(1000 + ((p + r) % 400)).padStart(4, '0')}-01`,
      lastProcessedDate: `2026-11-${String(1 + ((p + 3) % 28)).padStart(2, '0')} 14:05:00`,
      price: 12.5 + ((p * 7 + r) % 40),
      lastFilledOn: `2026-10-${String(1 + (p % 28)).padStart(2, '0')}`,
      refillsRemaining: r,
      prepared: null,
      faxByRule: null,
      phoneException: false,
      substitutionStatus: null,
      priorAuthStatus: null,
      drugName: DRUGS[(p + r) % DRUGS.length],
      strength: `${10 * (1 + ((p + r) % 8))} mg`,
      quantity: 30,
      daysSupply: 30,
      refills: r,
      sig: 'Take one tablet by mouth daily',
      prescribedDate: `2026-11-${String(1 + (p % 28)).padStart(2, '0')} 09:30:00`,
      orderNumber: String(100_000 + p * 2 + r),
      orderStatus: 'Awaiting Refill Authorization',
      alternativeMeds: [],
    })),
  }));
  return JSON.stringify({ doctors: [{ id: randomUUID(), name: 'Dr Morgan', patients }] });
}

async function serve(options: typeof COMPRESSION_OPTIONS, body: string) {
  const app = Fastify();
  await registerCompression(app, options);
  app.get('/list', async (_request, reply) => reply.type('application/json').send(body));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/list` };
}

export async function compressionBench(seconds: number): Promise<void> {
  const body = busyList();
  // The plugin's own default for this machine's parallelism (it reads os.availableParallelism()).
  const { syncThreshold: _ours, ...pluginDefault } = COMPRESSION_OPTIONS;
  const ours = await serve(COMPRESSION_OPTIONS, body);
  const theirs = await serve(pluginDefault as typeof COMPRESSION_OPTIONS, body);
  const headers = { 'accept-encoding': 'br' };
  const round = Math.max(1, Math.round(seconds / 2));
  try {
    await interleavedRatio(
      'large-list compression',
      `GET of a ${Math.round(body.length / 1024)} KB list, br, req/s (one synchronous call)`,
      'the plugin default (a stream above 8 KiB)',
      5,
      async () => (await load(ours.url, round, 10, headers)).requestsPerSecond,
      async () => (await load(theirs.url, round, 10, headers)).requestsPerSecond,
      (a, b) => `${a.toFixed(0)} vs ${b.toFixed(0)} req/s`,
    );
  } finally {
    await ours.app.close();
    await theirs.app.close();
  }
}
