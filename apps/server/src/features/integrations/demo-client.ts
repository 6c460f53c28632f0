/**
 * The demo pharmacy (issue 19): with demo data, `npm start` registers one integration client for the main brand
 * and keeps its private key in DATA_DIR/pharmacy-simulator.json (mode 600), so `npm run pharmacy:simulate` can sign
 * in like a real pharmacy system. A demo convenience only: a real client keeps its private key to itself.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import type { Database } from '../../db/client.ts';
import { integrationClients, mdStaff, tenants, users } from '../../db/schema.ts';
import { registerClient } from './clients.ts';

export const SIMULATOR_FILE = 'pharmacy-simulator.json';
const DEMO_PRESCRIBER_EMAIL = 'dr.morgan@demo.hcp';

export interface SimulatorFile {
  clientId: string;
  kid: string;
  alg: 'ES384';
  privateJwk: Record<string, unknown>;
  /** The demo prescriber's NPI: the simulator sends them half its requests, so they show up when signed in. */
  demoPrescriberNpi: string | null;
}

async function readSimulatorFile(file: string): Promise<SimulatorFile | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as SimulatorFile;
  } catch {
    return null;
  }
}

/** The demo client and its key file, registered on first start (again when the client was disabled or removed). */
export async function ensureDemoPharmacyClient(
  db: Database,
  dataDir: string,
): Promise<{ clientId: string; file: string } | null> {
  const file = path.join(dataDir, SIMULATOR_FILE);
  const existing = await readSimulatorFile(file);
  if (existing) {
    const [row] = await db
      .select({ id: integrationClients.id })
      .from(integrationClients)
      .where(and(eq(integrationClients.clientId, existing.clientId), isNull(integrationClients.disabledAt)));
    if (row) return { clientId: existing.clientId, file };
  }
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.key, 'main'));
  if (!tenant) return null;
  const [prescriber] = await db
    .select({ npi: mdStaff.npi })
    .from(users)
    .innerJoin(mdStaff, eq(mdStaff.id, users.mdStaffId))
    .where(eq(users.email, DEMO_PRESCRIBER_EMAIL));
  const { privateKey, publicKey } = await generateKeyPair('ES384', { extractable: true });
  const kid = `demo-${Date.now().toString(36)}`;
  const client = await registerClient(db, {
    name: 'Demo pharmacy (simulator)',
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES384', use: 'sig' } as never] },
    scopes: [
      'system/*.read',
      'system/Patient.write',
      'system/MedicationRequest.write',
      'system/Task.write',
      'system/Communication.write',
    ],
    tenantId: tenant.id,
    createdBy: null,
  });
  const contents: SimulatorFile = {
    clientId: client.clientId,
    kid,
    alg: 'ES384',
    privateJwk: (await exportJWK(privateKey)) as Record<string, unknown>,
    demoPrescriberNpi: prescriber?.npi ?? null,
  };
  await writeFile(file, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  return { clientId: client.clientId, file };
}
