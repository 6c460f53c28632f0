/**
 * `npm run integration:client -- <command>`: integration clients from the command line (the same rules as the
 * admin API). Uses the configured database (DATA_DIR or DATABASE_URL).
 *
 *   create --tenant main --name "Harbor Pharmacy" --scopes "system/Task.write system/*.read" (--jwks-file keys.json | --jwks-url https://…)
 *   list --tenant main
 *   disable --client-id hcp-…
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { integrationClientInputSchema } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { integrationClients, tenants } from '../../db/schema.ts';
import { registerClient, toClient } from './clients.ts';
import * as repo from './repository.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    tenant: { type: 'string', default: 'main' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    'jwks-file': { type: 'string' },
    'jwks-url': { type: 'string' },
    'client-id': { type: 'string' },
  },
});
const fail = (message: string): never => {
  console.error(`integration:client: ${message}`);
  process.exit(1);
};

const database = await openDatabase(loadConfig());
await database.migrate();
const db = database.db;
try {
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(eq(tenants.key, values.tenant ?? 'main'));
  if (!tenant) fail(`no tenant '${values.tenant}' (main or harrow)`);
  const command = positionals[0];
  if (command === 'create') {
    const input = integrationClientInputSchema.safeParse({
      name: values.name,
      scopes: (values.scopes ?? '').split(/\s+/).filter(Boolean),
      ...(values['jwks-file'] ? { jwks: JSON.parse(readFileSync(values['jwks-file'], 'utf8')) } : {}),
      ...(values['jwks-url'] ? { jwksUrl: values['jwks-url'] } : {}),
    });
    if (!input.success) fail(input.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    const created = await registerClient(db, {
      ...(input.data as NonNullable<typeof input.data>),
      tenantId: tenant?.id as string,
      createdBy: null,
    });
    console.log(`Created integration client '${created.name}'. Its client id (the "iss" and "sub" of its assertions):`);
    console.log(created.clientId);
  } else if (command === 'list') {
    for (const row of (await repo.clientsOfTenant(db, tenant?.id as string)).map(toClient)) {
      console.log(`${row.clientId}  ${row.disabled ? 'disabled' : 'enabled '}  ${row.name}  [${row.scopes.join(' ')}]`);
    }
  } else if (command === 'disable') {
    const [row] = await db
      .select()
      .from(integrationClients)
      .where(eq(integrationClients.clientId, values['client-id'] ?? ''));
    if (!row) fail('no such client id');
    await repo.disableClient(db, row?.tenantId as string, row?.id as string);
    console.log(`Disabled ${row?.clientId}.`);
  } else {
    fail('use create, list or disable (see the comment at the top of src/features/integrations/cli.ts)');
  }
} finally {
  await database.close();
}
