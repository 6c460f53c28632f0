/**
 * `npm run pharmacy:simulate`: a pharmacy's system putting a morning's work into the portal through its FHIR API
 * (issue 19). Signs in with SMART Backend Services as the demo client `npm start` registered (its key in
 * DATA_DIR/pharmacy-simulator.json), finds the practices and their prescribers, then posts one transaction Bundle
 * per request (a patient, the prescription, the Task: refill requests, prior authorizations, substitutions, phone
 * exceptions; every fourth with the patient's message for the office), half of them for the demo prescriber. Prints what it did, without patient names.
 *
 *   npm run pharmacy:simulate -- [--url http://localhost:3000] [--data-dir ./data] [--count 12]
 *                                [--npi <prescriber NPI>] [--category refill-request] [--json]
 *   npm run -s pharmacy:simulate -- --token     prints a five-minute access token (for curl) and stops
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  NDC_SYSTEM,
  NPI_SYSTEM,
  TASK_CODE_SYSTEM,
  TASK_CODES,
  TASK_INPUT_SYSTEM,
  TASK_SUBSTITUTION_REASONS,
  type TaskCode,
} from '@hcp/contract';
import { type CryptoKey, importJWK } from 'jose';
import { systemAccessToken } from './smart-client.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: `http://localhost:${process.env.PORT ?? 3000}` },
    'data-dir': { type: 'string', default: process.env.DATA_DIR ?? './data' },
    count: { type: 'string', default: '12' },
    npi: { type: 'string' },
    category: { type: 'string' },
    json: { type: 'boolean', default: false },
    token: { type: 'boolean', default: false },
  },
});
const fail = (message: string): never => {
  console.error(`pharmacy:simulate: ${message}`);
  process.exit(1);
};
const base = (values.url ?? '').replace(/\/$/, '');
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > 500) fail('--count must be 1 to 500');
const only = values.category as TaskCode | undefined;
if (only && !(TASK_CODES as readonly string[]).includes(only)) fail(`--category must be one of ${TASK_CODES.join(', ')}`);

interface SimulatorFile {
  clientId: string;
  kid: string;
  alg: 'ES384';
  privateJwk: Record<string, unknown>;
  demoPrescriberNpi: string | null;
}
const keyFile = path.resolve(values['data-dir'] ?? './data', 'pharmacy-simulator.json');
function readKeyFile(): SimulatorFile {
  try {
    return JSON.parse(readFileSync(keyFile, 'utf8')) as SimulatorFile;
  } catch {
    return fail(`no ${keyFile}: start the portal with demo data first (npm start), or pass --data-dir`);
  }
}
const simulator = readKeyFile();

async function accessToken(): Promise<string> {
  try {
    return await systemAccessToken({
      base,
      clientId: simulator.clientId,
      kid: simulator.kid,
      alg: simulator.alg,
      privateKey: (await importJWK(simulator.privateJwk, simulator.alg)) as CryptoKey,
      scope: 'system/*.read system/Patient.write system/MedicationRequest.write system/Task.write system/Communication.write',
    });
  } catch (error) {
    return fail(`${(error as Error).message} (is the portal running at ${base}?)`);
  }
}

const token = await accessToken();
if (values.token) {
  console.log(token);
  process.exit(0);
}
/** The portal's answer; a 422 refusal is answered (not fatal) when `refusals` is set, as `{ refused: why }`. */
async function fhir<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T>;
async function fhir<T>(method: 'POST', url: string, body: unknown, refusals: true): Promise<T | { refused: string }>;
async function fhir<T>(method: 'GET' | 'POST', url: string, body?: unknown, refusals = false): Promise<T | { refused: string }> {
  const res = await fetch(`${base}/fhir/R4${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as T & { issue?: { code?: string; diagnostics?: string }[] };
  const why = answer.issue?.[0]?.diagnostics ?? '';
  // A practice may decline a kind of request (its refill and PA choices): a pharmacy records that and goes on.
  if (refusals && res.status === 422 && answer.issue?.[0]?.code === 'business-rule') return { refused: why };
  if (!res.ok) fail(`${method} ${url}: ${res.status} ${why}`);
  return answer;
}

interface SearchBundle<R> {
  entry?: { resource: R }[];
}
type Ref = { reference: string };
interface Role {
  practitioner: Ref;
  organization: Ref;
  identifier?: { value: string }[];
  code: { coding: { code: string }[] }[];
}

/** Prescribers (with an NPI) by practice: the targeted NPI's practices, else the first practices of the portal. */
async function prescribersByPractice(): Promise<{ practice: string; name: string; npi: string }[]> {
  const organizations = await fhir<SearchBundle<{ id: string; name: string }>>('GET', '/Organization?_count=8');
  const names = new Map((organizations.entry ?? []).map((e) => [e.resource.id, e.resource.name]));
  const targets: { practice: string; name: string; npi: string }[] = [];
  const focus = values.npi ?? simulator.demoPrescriberNpi;
  if (focus) {
    const found = await fhir<SearchBundle<{ id: string }>>(
      'GET',
      `/Practitioner?identifier=${encodeURIComponent(`${NPI_SYSTEM}|${focus}`)}`,
    );
    const id = found.entry?.[0]?.resource.id;
    if (!id && values.npi) fail(`no prescriber with NPI ${values.npi}`);
    if (id) {
      const roles = await fhir<SearchBundle<Role>>('GET', `/PractitionerRole?practitioner=Practitioner/${id}`);
      for (const { resource } of roles.entry ?? []) {
        const practice = resource.organization.reference.replace('Organization/', '');
        const org = names.get(practice) ?? (await fhir<{ name: string }>('GET', `/Organization/${practice}`)).name;
        targets.push({ practice, name: org, npi: focus });
      }
    }
  }
  if (values.npi) return targets;
  for (const [practice, name] of names) {
    const roles = await fhir<SearchBundle<Role>>('GET', `/PractitionerRole?organization=Organization/${practice}`);
    for (const { resource } of roles.entry ?? []) {
      const npi = resource.identifier?.[0]?.value;
      if (npi && resource.code[0]?.coding[0]?.code !== 'STAFF') targets.push({ practice, name, npi });
    }
  }
  return targets;
}

const FIRST = ['Avery', 'Jordan', 'Riley', 'Casey', 'Morgan', 'Quinn', 'Rowan', 'Skyler', 'Emerson', 'Hayden'];
const LAST = ['Testfall', 'Samplewood', 'Demoreau', 'Mockridge', 'Fictiva', 'Placeholt', 'Exampleton'];
const DRUGS = [
  {
    text: 'Atorvastatin 20 mg tablet',
    ndc: '0093-5057-98',
    alternatives: ['Rosuvastatin 10 mg tablet', 'Simvastatin 40 mg tablet'],
  },
  { text: 'Lisinopril 10 mg tablet', ndc: '68180-0513-01', alternatives: ['Losartan 50 mg tablet', 'Enalapril 10 mg tablet'] },
  { text: 'Metformin ER 500 mg tablet', ndc: '0591-2413-01', alternatives: ['Metformin 500 mg tablet'] },
  { text: 'Levothyroxine 50 mcg tablet', ndc: '0378-1801-01', alternatives: ['Synthroid 50 mcg tablet'] },
  { text: 'Fluticasone 50 mcg nasal spray', ndc: '60505-0829-01', alternatives: ['Mometasone 50 mcg nasal spray'] },
];
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;
/** A morning's mix: mostly refill requests. */
const MIX: TaskCode[] = [
  'refill-request',
  'refill-request',
  'refill-request',
  'refill-request',
  'prior-authorization',
  'substitution',
  'phone-exception',
];
const input = (code: string, value: Record<string, string | number>) => ({
  type: { coding: [{ system: TASK_INPUT_SYSTEM, code }] },
  ...value,
});

function inputsOf(code: TaskCode, drug: (typeof DRUGS)[number], lastFill: string, index: number) {
  switch (code) {
    case 'refill-request':
      // What the prescriber decides from (issue 22): when it was last filled and that no refills are left.
      return [input('last-fill-date', { valueDate: lastFill.slice(0, 10) }), input('refills-remaining', { valueInteger: 0 })];
    case 'prior-authorization':
      return [
        // Every other one asks for chart notes, so two runs of the same count ask for the same work.
        input('pa-status', { valueCode: index % 2 === 0 ? 'PRIOR_AUTH_REQUIRED' : 'PRIOR_AUTH_CHART_NOTES_NEEDED' }),
        input('pa-method', { valueCode: 'CMM_PA' }),
      ];
    case 'substitution':
      return [
        input('substitution-reason', { valueCode: pick(Object.keys(TASK_SUBSTITUTION_REASONS)) }),
        ...drug.alternatives.map((a) => input('alternative', { valueString: a })),
      ];
    case 'phone-exception':
      return [input('wrong-phone', { valueString: `614555${String(randomInt(1000, 9999))}` })];
    default:
      return [];
  }
}

const MESSAGES = [
  'Can my refill be sent before Friday? I travel on Saturday.',
  'The pharmacy says my insurance needs a form from the doctor.',
  'I have a mild rash since starting this, should I keep taking it?',
];

function bundleFor(target: { practice: string; npi: string }, code: TaskCode, withMessage: boolean, index: number) {
  const stamp = `${Date.now().toString(36)}${randomInt(1000, 9999)}`;
  const drug = pick(DRUGS);
  const birth = new Date(Date.UTC(randomInt(1940, 2004), randomInt(12), randomInt(1, 28))).toISOString().slice(0, 10);
  const lastFill = new Date(Date.now() - randomInt(20, 40) * 86_400_000).toISOString();
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: [
      {
        fullUrl: 'urn:uuid:patient',
        request: { method: 'POST', url: 'Patient' },
        resource: {
          resourceType: 'Patient',
          identifier: [{ system: 'urn:demo-pharmacy:patient', value: `P${stamp}` }],
          name: [{ family: pick(LAST), given: [pick(FIRST)] }],
          birthDate: birth,
          telecom: [{ system: 'phone', value: `614555${String(randomInt(1000, 9999))}` }],
          managingOrganization: { reference: `Organization/${target.practice}` },
        },
      },
      {
        fullUrl: 'urn:uuid:prescription',
        request: { method: 'POST', url: 'MedicationRequest' },
        resource: {
          resourceType: 'MedicationRequest',
          identifier: [{ system: 'urn:demo-pharmacy:order', value: `R${stamp}` }],
          status: 'active',
          intent: 'order',
          subject: { reference: 'urn:uuid:patient' },
          requester: { identifier: { system: NPI_SYSTEM, value: target.npi } },
          medicationCodeableConcept: { text: drug.text, coding: [{ system: NDC_SYSTEM, code: drug.ndc }] },
          authoredOn: lastFill,
          dosageInstruction: [{ text: 'Take 1 daily' }],
          dispenseRequest: {
            numberOfRepeatsAllowed: 0,
            quantity: { value: 30 },
            expectedSupplyDuration: { value: 30, unit: 'days' },
          },
        },
      },
      {
        request: { method: 'PUT', url: `Task?identifier=${encodeURIComponent(`urn:demo-pharmacy:task|T${stamp}`)}` },
        resource: {
          resourceType: 'Task',
          identifier: [{ system: 'urn:demo-pharmacy:task', value: `T${stamp}` }],
          status: 'requested',
          intent: 'order',
          code: { coding: [{ system: TASK_CODE_SYSTEM, code }] },
          focus: { reference: 'urn:uuid:prescription' },
          businessStatus: { text: 'Waiting for the prescriber' },
          input: inputsOf(code, drug, lastFill, index),
        },
      },
      ...(withMessage
        ? [
            {
              request: { method: 'POST', url: 'Communication' },
              resource: {
                resourceType: 'Communication',
                identifier: [{ system: 'urn:demo-pharmacy:message', value: `M${stamp}` }],
                status: 'completed',
                subject: { reference: 'urn:uuid:patient' },
                about: [{ reference: 'urn:uuid:prescription' }],
                payload: [{ contentString: pick(MESSAGES) }],
              },
            },
          ]
        : []),
    ],
  };
}

const targets = await prescribersByPractice();
if (targets.length === 0) fail('no practice with a prescriber to send requests to');
const focus = values.npi ?? simulator.demoPrescriberNpi;
const sent: { task: string; prescription: string; code: TaskCode; practice: string }[] = [];
const refused: { code: TaskCode; practice: string; why: string }[] = [];
for (let i = 0; i < count; i += 1) {
  // Half for the demo prescriber (so they see it when signed in), the rest spread over the practices.
  const mine = targets.filter((t) => t.npi === focus);
  const target = i % 2 === 0 && mine.length ? pick(mine) : pick(targets);
  const code = only ?? pick(MIX);
  const answer = await fhir<{ entry: { resource: { resourceType: string; id: string } }[] }>(
    'POST',
    '',
    bundleFor(target, code, !only && i % 4 === 3, i),
    true,
  );
  if ('refused' in answer) {
    refused.push({ code, practice: target.name, why: answer.refused });
    if (!values.json) console.log(`${String(i + 1).padStart(3)}. ${code.padEnd(20)} ${target.name}  refused: ${answer.refused}`);
    continue;
  }
  const idOf = (type: string) => answer.entry.find((e) => e.resource.resourceType === type)?.resource.id as string;
  sent.push({ task: idOf('Task'), prescription: idOf('MedicationRequest'), code, practice: target.name });
  if (!values.json) console.log(`${String(i + 1).padStart(3)}. ${code.padEnd(20)} ${target.name}  Task/${idOf('Task')}`);
}
if (values.json) console.log(JSON.stringify({ sent, refused }));
else {
  const tally = new Map<string, number>();
  for (const { code } of sent) tally.set(code, (tally.get(code) ?? 0) + 1);
  const byCode = [...tally].map(([code, n]) => `${n} ${code}`);
  console.log(
    `\nSent ${sent.length} requests (${byCode.join(', ')}) as client ${simulator.clientId}. Sign in as dr.morgan@demo.hcp to see them on Action Needed.`,
  );
  if (refused.length > 0) console.log(`${refused.length} declined by the practice's refill and PA choices.`);
}
