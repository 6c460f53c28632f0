import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'fhir-kit-client';
import { importJWK, SignJWT } from 'jose';
import { startReceiver } from '../../apps/server/test/support/webhook-receiver.ts';
import { apiSession, authorizeRefillByFax, expect, signInAs, test } from './fixtures.ts';

/**
 * The pharmacy's side written from the README alone, with code nobody here wrote (issue 46): a maintained FHIR
 * client (fhir-kit-client) finds the token endpoint in the server's SMART metadata, signs in with the demo pharmacy's
 * own key (its JWT signed with jose), creates a patient, a prescription and a refill Task, and a Standard Webhooks
 * receiver (the standardwebhooks library) verifies the decision the prescriber makes in the browser. Then the
 * client reads the Task back as the message said it, reads its first version, and has its write on that stale
 * version refused with 412.
 */

type Resource = { resourceType: string; id?: string; meta?: { versionId?: string }; [key: string]: unknown };
type TaskResource = Resource & { status: string; businessStatus?: unknown; output?: unknown[] };

interface SimulatorFile {
  clientId: string;
  kid: string;
  alg: 'ES384';
  privateJwk: Record<string, unknown>;
  demoPrescriberNpi: string;
}

test('a pharmacy on a FHIR client library: its Task reads as the signed webhook said, versions and all', async ({
  page,
  baseURL,
}) => {
  const key = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'pharmacy-simulator.json'), 'utf8'),
  ) as SimulatorFile;
  const client = new Client({ baseUrl: `${baseURL}/fhir/R4` });

  // SMART Backend Services: the token endpoint from the server's own metadata, then an assertion signed with our key.
  const { tokenUrl } = await client.smartAuthMetadata();
  expect(tokenUrl).toBeTruthy();
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(key.clientId)
    .setSubject(key.clientId)
    .setAudience(String(tokenUrl))
    .setIssuedAt(now)
    .setExpirationTime(now + 240)
    .setJti(crypto.randomUUID())
    .sign(await importJWK(key.privateJwk, key.alg));
  const tokenAnswer = await fetch(String(tokenUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: 'system/*.read system/Patient.write system/MedicationRequest.write system/Task.write',
    }),
  });
  expect(tokenAnswer.status).toBe(200);
  client.bearerToken = ((await tokenAnswer.json()) as { access_token: string }).access_token;

  // The webhook receiver (it verifies each delivery with standardwebhooks), subscribed by the tenant's admin.
  const receiver = await startReceiver();
  const admin = await apiSession(page, 'admin@demo.hcp');
  const endpoint = await page.request.post('/api/mdo/v1/webhook-endpoints', {
    headers: admin.headers,
    data: { url: receiver.url, events: ['refill.authorized'] },
  });
  expect(endpoint.status()).toBe(201);
  const { endpoint: created, secret } = (await endpoint.json()) as { endpoint: { id: string }; secret: string };
  receiver.secrets = [secret];

  try {
    // The pharmacy's work: Dr. Morgan's practice, a patient, the prescription, the refill request.
    const found = (await client.search({
      resourceType: 'PractitionerRole',
      searchParams: { practitioner: await practitionerOf(client, key.demoPrescriberNpi) },
    })) as { entry?: { resource: { organization: { reference: string } } }[] };
    const practice = found.entry?.[0]?.resource.organization.reference as string;
    const stamp = `${Date.now().toString(36)}-kit`;
    const patient = (await client.create({
      resourceType: 'Patient',
      body: {
        resourceType: 'Patient',
        identifier: [{ system: 'urn:kit-pharmacy:patient', value: stamp }],
        name: [{ family: 'Testfall', given: ['Kit'] }],
        birthDate: '1970-05-06',
        managingOrganization: { reference: practice },
      },
    })) as Resource;
    const prescription = (await client.create({
      resourceType: 'MedicationRequest',
      body: {
        resourceType: 'MedicationRequest',
        identifier: [{ system: 'urn:kit-pharmacy:order', value: stamp }],
        status: 'active',
        intent: 'order',
        subject: { reference: `Patient/${patient.id}` },
        requester: { identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: key.demoPrescriberNpi } },
        medicationCodeableConcept: { text: 'Atorvastatin 20 mg tablet' },
        authoredOn: new Date().toISOString(),
        dosageInstruction: [{ text: 'Take 1 tablet daily' }],
        dispenseRequest: {
          numberOfRepeatsAllowed: 0,
          quantity: { value: 30 },
          expectedSupplyDuration: { value: 30, unit: 'days' },
        },
      },
    })) as Resource;
    const taskBody = {
      resourceType: 'Task',
      identifier: [{ system: 'urn:kit-pharmacy:task', value: stamp }],
      status: 'requested',
      intent: 'order',
      code: { coding: [{ system: 'urn:hcp-portal:task-code', code: 'refill-request' }] },
      focus: { reference: `MedicationRequest/${prescription.id}` },
      businessStatus: { text: 'Waiting for the prescriber' },
    };
    const asked = (await client.create({ resourceType: 'Task', body: taskBody })) as TaskResource;
    const taskId = asked.id as string;
    expect(asked).toMatchObject({ status: 'requested', meta: { versionId: '1' } });

    // The prescriber answers it in the browser.
    await signInAs(page, 'dr.morgan@demo.hcp');
    await page.goto(`/action-needed/${prescription.id}/refillAuth`);
    await authorizeRefillByFax(page);

    // Held for its undo window, then sent: the test waits for the message itself, not for a time.
    const focusOf = (body: string) => (JSON.parse(body) as { entry?: { resource: TaskResource }[] }).entry?.[1]?.resource;
    const delivery = await receiver.when((r) => focusOf(r.body)?.id === taskId);
    expect(delivery.verified).toBe(true);
    const message = { task: focusOf(delivery.body) as TaskResource };
    const read = (await client.read({ resourceType: 'Task', id: taskId })) as TaskResource;
    expect(read.status).toBe('completed');
    expect({ status: read.status, businessStatus: read.businessStatus, output: read.output }).toEqual({
      status: message.task.status,
      businessStatus: message.task.businessStatus,
      output: message.task.output,
    });
    const searched = await client.search({ resourceType: 'Task', searchParams: { _id: taskId, status: 'completed' } });
    expect(searched.total).toBe(1);
    const first = (await client.vread({ resourceType: 'Task', id: taskId, version: '1' })) as TaskResource;
    expect(first).toEqual(asked);

    // A write made on what it read before the answer is refused, and changes nothing.
    const stale = await client
      .update({
        resourceType: 'Task',
        id: taskId,
        body: { ...taskBody, id: taskId, status: 'completed', businessStatus: { text: 'Patient told' } },
        options: { headers: { 'If-Match': 'W/"1"' } },
      })
      .then(
        () => 0,
        (error: { response?: { status?: number } }) => error.response?.status ?? -1,
      );
    expect(stale).toBe(412);
    expect(((await client.read({ resourceType: 'Task', id: taskId })) as TaskResource).meta?.versionId).toBe(
      read.meta?.versionId,
    );
  } finally {
    await page.request.patch(`/api/mdo/v1/webhook-endpoints/${created.id}`, { headers: admin.headers, data: { enabled: false } });
    await receiver.close();
  }
});

/** Practitioner/<id> of the prescriber with this NPI. */
async function practitionerOf(client: Client, npi: string): Promise<string> {
  const found = (await client.search({
    resourceType: 'Practitioner',
    searchParams: { identifier: `http://hl7.org/fhir/sid/us-npi|${npi}` },
  })) as { entry?: { resource: { id: string } }[] };
  return `Practitioner/${found.entry?.[0]?.resource.id}`;
}
