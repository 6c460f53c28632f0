/**
 * Deterministic demo data: the same seed number and clock give the same rows every run (seeded PRNG,
 * generated UUIDs). Dates are relative to `now` so "the last 24 hours" always has prescriptions.
 */

import { createHash } from 'node:crypto';
import { en, Faker } from '@faker-js/faker';
import {
  APPEAL_LINK_DAYS,
  COMMUNICATION_MODES,
  EMAIL_OPT_MODES,
  npiCheckDigit,
  PA_HANDLING_OPTIONS,
  PRIOR_AUTH_METHODS,
  PRIOR_AUTH_STATUSES,
  REFILL_REQUEST_OPTIONS,
  SUBSTITUTION_PENDING_STATUSES,
  SUBSTITUTION_RESOLVED_STATUSES,
} from '@hcp/contract';
import type * as schema from '../db/schema.ts';
import { sha256 } from '../lib/crypto.ts';
import { ALTERNATIVES, DRUGS, EXTRA_CONTROLLED, ORDER_STATUSES, PAYERS, SIGS, SPECIALTIES, TENANTS, ZIPS } from './catalogue.ts';
import { addDecisionFacts } from './decision-facts.ts';

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export type SeedSize = 'small' | 'large';

export const SEED_SIZES = {
  small: {
    mainOffices: 6,
    harrowOffices: 2,
    prospectOffices: 24,
    prescribersPerOffice: 3,
    staffPerOffice: 1,
    patients: 200,
    rxPerPatient: 4,
  },
  large: {
    mainOffices: 60,
    harrowOffices: 10,
    prospectOffices: 40,
    prescribersPerOffice: 4,
    staffPerOffice: 1,
    patients: 10_000,
    rxPerPatient: 10,
  },
} as const;

export interface DemoAccount {
  key: 'prescriber' | 'staff' | 'admin' | 'sales' | 'mfa' | 'harrow' | 'vam';
  email: string;
  description: string;
}

/** The accounts README and `npm start` list; all use DEMO_PASSWORD. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { key: 'prescriber', email: 'dr.morgan@demo.hcp', description: 'Prescriber (MD), can prescribe, has Harrow access' },
  { key: 'staff', email: 'staff.lee@demo.hcp', description: 'Office staff at the same practice' },
  {
    key: 'admin',
    email: 'admin@demo.hcp',
    description: 'Provider admin (manage accounts and communications) and privacy officer (audit trail)',
  },
  { key: 'sales', email: 'sales@demo.hcp', description: 'Provider sales user (manage communications)' },
  { key: 'mfa', email: 'dr.patel@demo.hcp', description: 'Prescriber with two-step verification on' },
  { key: 'harrow', email: 'dr.kim@harrow.demo.hcp', description: 'Second-brand (Harrow) prescriber' },
  { key: 'vam', email: 'vam.staff@demo.hcp', description: 'Office staff of a VAM practice (has an account manager)' },
];

export interface DemoData {
  tenants: Insert<typeof schema.tenants>[];
  featureFlags: Insert<typeof schema.featureFlags>[];
  appSettings: Insert<typeof schema.appSettings>[];
  drugProducts: Insert<typeof schema.drugProducts>[];
  drugAlternatives: Insert<typeof schema.drugAlternatives>[];
  mdOffices: Insert<typeof schema.mdOffices>[];
  mdStaff: Insert<typeof schema.mdStaff>[];
  officeMembers: Insert<typeof schema.officeMembers>[];
  users: (Omit<Insert<typeof schema.users>, 'passwordHash'> & { demoKey: DemoAccount['key'] | null })[];
  patients: Insert<typeof schema.patients>[];
  prescriptions: Insert<typeof schema.prescriptions>[];
  prescriptionEvents: Insert<typeof schema.prescriptionEvents>[];
  comments: Insert<typeof schema.comments>[];
  commentMentions: Insert<typeof schema.commentMentions>[];
  appeals: Insert<typeof schema.appeals>[];
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Scenario =
  | { kind: 'none' }
  | { kind: 'refill' }
  | { kind: 'postponedFuture' }
  | { kind: 'postponedPast' }
  | { kind: 'priorAuth'; status: (typeof PRIOR_AUTH_STATUSES)[number] }
  | { kind: 'substitution'; status: string }
  | { kind: 'phone' }
  | { kind: 'appeal' }
  | { kind: 'refillAndPriorAuth' };

/** Every office starts with one prescription of each scenario so every demo user sees every state. */
const COVERAGE: Scenario[] = [
  { kind: 'refill' },
  { kind: 'postponedFuture' },
  { kind: 'postponedPast' },
  ...PRIOR_AUTH_STATUSES.map((status) => ({ kind: 'priorAuth' as const, status })),
  ...[...SUBSTITUTION_PENDING_STATUSES, ...SUBSTITUTION_RESOLVED_STATUSES].map((status) => ({
    kind: 'substitution' as const,
    status,
  })),
  { kind: 'phone' },
  { kind: 'appeal' },
  { kind: 'refillAndPriorAuth' },
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function generateDemoData(options: { size: SeedSize; now: Date; seed?: number }): DemoData {
  const f = new Faker({ locale: [en] });
  f.seed(options.seed ?? 20261123);
  // A second stream for what was added later (decision facts): the first stream's values stay the same.
  const g = new Faker({ locale: [en] });
  g.seed((options.seed ?? 20261123) + 1);
  const uuid = () => f.string.uuid();
  const now = options.now.getTime();
  const sizes = SEED_SIZES[options.size];
  const pick = <T>(items: readonly T[]): T => f.helpers.arrayElement(items);
  const chance = (p: number) => f.number.float({ min: 0, max: 1 }) < p;
  const phone = () =>
    `(${f.string.numeric({ length: 1, allowLeadingZeros: false }).replace(/[01]/, '6')}${f.string.numeric(2)}) 555-01${f.string.numeric(2)}`;
  const ago = (minMs: number, maxMs: number) => new Date(now - f.number.int({ min: minMs, max: maxMs }));
  const practiceName = () =>
    `${f.location.street()} ${pick(['Medical Group', 'Family Practice', 'Clinic', 'Associates', 'Health Center'])}`;
  // Drawn in this order (the seeded stream must stay the same for the same seed).
  const officePrefs = () => ({
    communicationMode: pick(COMMUNICATION_MODES),
    paHandling: pick(PA_HANDLING_OPTIONS),
    refillRequestOption: pick(REFILL_REQUEST_OPTIONS),
  });

  const data: DemoData = {
    tenants: [],
    featureFlags: [
      { key: 'isHarrowPortalEnabled', enabled: true, description: 'Second-brand (Harrow) portal' },
      { key: 'isHcpPrescribingEnabled', enabled: true, description: 'Prescribe Rx for HCPs' },
    ],
    appSettings: [{ key: 'defaultBrand', value: 'main' }],
    drugProducts: [],
    drugAlternatives: [],
    mdOffices: [],
    mdStaff: [],
    officeMembers: [],
    users: [],
    patients: [],
    prescriptions: [],
    prescriptionEvents: [],
    comments: [],
    commentMentions: [],
    appeals: [],
  };

  const tenantIds: Record<string, string> = {};
  for (const tenant of TENANTS) {
    const id = uuid();
    tenantIds[tenant.key] = id;
    data.tenants.push({
      id,
      key: tenant.key,
      name: tenant.name,
      title: tenant.title,
      colour: tenant.colour,
      hostnames: [...tenant.hostnames],
    });
  }
  for (const drug of DRUGS) data.drugProducts.push({ id: uuid(), ...drug, isControlled: drug.isControlled ?? false });
  for (const drug of EXTRA_CONTROLLED) data.drugProducts.push(drug);
  for (const [drugName, alternatives] of Object.entries(ALTERNATIVES)) {
    for (const [rank, alternativeName] of alternatives.entries()) {
      data.drugAlternatives.push({ id: uuid(), drugName, alternativeName, rank });
    }
  }
  const prescribable = DRUGS.filter((d) => !d.isControlled);

  // --- provider users (not tied to a practice) ---
  const adminId = uuid();
  const salesId = uuid();
  data.users.push(
    {
      id: adminId,
      tenantId: tenantIds.main as string,
      email: 'admin@demo.hcp',
      role: 'provider.admin',
      userType: 'provider_admin',
      displayName: 'Avery Admin',
      phone: '(614) 555-0100',
      // The demo's privacy officer (issue 49): reads the audit trail.
      privacyOfficer: true,
      demoKey: 'admin',
    },
    {
      id: salesId,
      tenantId: tenantIds.main as string,
      email: 'sales@demo.hcp',
      role: 'provider.sales',
      userType: 'provider_sales',
      displayName: 'Sam Sales',
      phone: '(614) 555-0101',
      demoKey: 'sales',
    },
  );

  // --- practices, HCPs and staff ---
  const offices: { id: string; tenant: 'main' | 'harrow'; prescribers: string[]; staff: string[] }[] = [];
  const officeCount = sizes.mainOffices + sizes.harrowOffices;
  for (let o = 0; o < officeCount; o += 1) {
    const tenant = o < sizes.mainOffices ? 'main' : 'harrow';
    const zip = ZIPS[o % ZIPS.length] as (typeof ZIPS)[number];
    const id = uuid();
    const name = o === 0 ? 'Morgan Family Medicine' : practiceName();
    data.mdOffices.push({
      id,
      tenantId: tenantIds[tenant] as string,
      name,
      address1: f.location.streetAddress(),
      city: zip.city,
      state: zip.state,
      zip: zip.zip,
      phone: phone(),
      fax: phone(),
      email: `office${o + 1}@practice.demo.hcp`,
      isKeyAccount: o % 3 === 0,
      isVam: o === 2,
      accountManagerName: o === 2 ? 'Jordan Rivera' : null,
      accountManagerPhone: o === 2 ? '(614) 555-0150' : null,
      accountManagerEmail: o === 2 ? 'jordan.rivera@provider.demo.hcp' : null,
      notOnboarded: o === 4,
      prescribeVia: o % 2 === 0 ? 'eRx' : 'Fax',
      harrowPortalAccess: o === 0 || tenant === 'harrow',
      prescribingEnabled: o === 0 || o === 1 || tenant === 'harrow',
      ...officePrefs(),
      salesUserId: salesId,
      createdAt: ago(200 * DAY, 900 * DAY),
    });
    const office = { id, tenant, prescribers: [] as string[], staff: [] as string[] } as (typeof offices)[number];
    offices.push(office);
    const members = sizes.prescribersPerOffice + sizes.staffPerOffice;
    for (let s = 0; s < members; s += 1) {
      const isStaff = s >= sizes.prescribersPerOffice;
      const staffId = uuid();
      const fixed =
        o === 0 && s === 0
          ? { firstName: 'Alex', lastName: 'Morgan' }
          : o === 0 && isStaff
            ? { firstName: 'Jamie', lastName: 'Lee' }
            : o === 1 && s === 0
              ? { firstName: 'Priya', lastName: 'Patel' }
              : o === sizes.mainOffices && s === 0
                ? { firstName: 'Daniel', lastName: 'Kim' }
                : { firstName: f.person.firstName(), lastName: f.person.lastName() };
      data.mdStaff.push({
        id: staffId,
        tenantId: tenantIds[tenant] as string,
        ...fixed,
        npi: isStaff ? null : npiFrom(f.string.numeric({ length: 9, allowLeadingZeros: false })),
        specialty: isStaff ? null : pick(SPECIALTIES),
        role: isStaff ? 'STAFF' : s === 0 ? 'MD' : pick(['MD', 'DO', 'PA', 'NP', 'ARNP']),
        phone: phone(),
        fax: isStaff ? null : phone(),
        email: `${fixed.firstName}.${fixed.lastName}.${o}${s}@staff.demo.hcp`.toLowerCase(),
        communicationMode: pick(COMMUNICATION_MODES),
        emailOptIn: pick(EMAIL_OPT_MODES),
        // Some prescribers joined recently (the Rx list's "New MDs" filter needs them).
        createdAt: s === 1 ? ago(5 * DAY, 80 * DAY) : ago(120 * DAY, 1500 * DAY),
      });
      data.officeMembers.push({ mdOfficeId: id, mdStaffId: staffId });
      (isStaff ? office.staff : office.prescribers).push(staffId);
    }
  }

  const firstMain = offices[0] as (typeof offices)[number];
  const secondMain = offices[1] as (typeof offices)[number];
  const firstHarrow = offices[sizes.mainOffices] as (typeof offices)[number];
  data.users.push(
    {
      id: uuid(),
      tenantId: tenantIds.main as string,
      email: 'dr.morgan@demo.hcp',
      role: 'mdo.user',
      userType: 'mdo_user.prescriber',
      displayName: 'Dr. Alex Morgan',
      phone: '(614) 555-0110',
      mdStaffId: firstMain.prescribers[0],
      mdOfficeId: firstMain.id,
      skipErxConfirmation: false,
      demoKey: 'prescriber',
    },
    {
      id: uuid(),
      tenantId: tenantIds.main as string,
      email: 'staff.lee@demo.hcp',
      role: 'mdo.user',
      userType: 'mdo_user.staff',
      displayName: 'Jamie Lee',
      phone: '(614) 555-0111',
      mdStaffId: firstMain.staff[0],
      mdOfficeId: firstMain.id,
      demoKey: 'staff',
    },
    {
      id: uuid(),
      tenantId: tenantIds.main as string,
      email: 'dr.patel@demo.hcp',
      role: 'mdo.user',
      userType: 'mdo_user.prescriber',
      displayName: 'Dr. Priya Patel',
      phone: '(312) 555-0112',
      mdStaffId: secondMain.prescribers[0],
      mdOfficeId: secondMain.id,
      mfaEnabled: true,
      demoKey: 'mfa',
    },
    {
      id: uuid(),
      tenantId: tenantIds.harrow as string,
      email: 'dr.kim@harrow.demo.hcp',
      role: 'mdo.user',
      userType: 'mdo_user.prescriber',
      displayName: 'Dr. Daniel Kim',
      phone: '(206) 555-0113',
      mdStaffId: firstHarrow.prescribers[0],
      mdOfficeId: firstHarrow.id,
      demoKey: 'harrow',
    },
  );

  // --- patients and prescriptions ---
  const npiOfStaff = new Map(data.mdStaff.map((m) => [m.id as string, m.npi ?? null]));
  let orderSeq = 4_100_000;
  const coverageLeft = new Map(offices.map((o) => [o.id, [...COVERAGE]]));
  for (let p = 0; p < sizes.patients; p += 1) {
    const office = offices[p % offices.length] as (typeof offices)[number];
    const zip = pick(ZIPS);
    const patientId = uuid();
    data.patients.push({
      id: patientId,
      mdOfficeId: office.id,
      firstName: f.person.firstName(),
      lastName: f.person.lastName(),
      dob: isoDay(Date.UTC(1935, 0, 1) + f.number.int({ min: 0, max: 73 * 365 }) * DAY),
      phoneNumbers: chance(0.4) ? [phone(), phone()] : [phone()],
      address1: f.location.streetAddress(),
      city: zip.city,
      state: zip.state,
      zip: zip.zip,
      createdAt: ago(30 * DAY, 1000 * DAY),
    });

    for (let r = 0; r < sizes.rxPerPatient; r += 1) {
      const queue = coverageLeft.get(office.id) as Scenario[];
      const covering = queue.shift();
      const scenario: Scenario = covering ?? randomScenario(f);
      const drug =
        scenario.kind === 'substitution'
          ? pick(prescribable.filter((d) => ['Januvia', 'Ozempic', 'Restasis', 'Humira'].includes(d.name)))
          : pick(prescribable);
      const recent = chance(0.08);
      const prescribedAt = recent ? ago(10 * 60_000, 23 * HOUR) : ago(1 * DAY, 120 * DAY);
      const processedAt = new Date(Math.min(now, prescribedAt.getTime() + f.number.int({ min: 1, max: 72 }) * HOUR));
      const orderStatus = pick(ORDER_STATUSES);
      const rxId = uuid();
      const row: Insert<typeof schema.prescriptions> = {
        id: rxId,
        patientId,
        prescriberId: pick(office.prescribers),
        mdOfficeId: office.id,
        drugName: drug.name,
        strength: drug.strength,
        prescribedNdc: drug.ndc,
        dispensedNdc: chance(0.85) ? drug.ndc : null,
        quantity: pick([30, 60, 90]),
        daysSupply: pick([30, 90]),
        refills: f.number.int({ min: 0, max: 11 }),
        sig: pick(SIGS),
        orderNumber: String(orderSeq++),
        orderStatus,
        pending: ['Processing', 'On Hold', 'Price Verification', 'Pending payment approval'].includes(orderStatus) && chance(0.7),
        isWholesale: chance(0.05),
        price: ['Price Verification', 'Pending payment approval'].includes(orderStatus)
          ? f.commerce.price({ min: 5, max: 900 })
          : null,
        prescribedAt,
        lastProcessedAt: processedAt,
      };
      // The covering appeal belongs to the practice's first prescriber (Dr. Morgan in the demo practice), so a
      // signed-in prescriber always has an appeal of their own to open; the draw above still happens.
      if (covering?.kind === 'appeal') row.prescriberId = office.prescribers[0] as string;
      switch (scenario.kind) {
        case 'refill':
          row.needsRefillAuth = true;
          break;
        case 'postponedFuture':
          row.needsRefillAuth = true;
          row.refillPostponedUntil = isoDay(now + f.number.int({ min: 3, max: 60 }) * DAY);
          break;
        case 'postponedPast':
          row.needsRefillAuth = true;
          row.refillPostponedUntil = isoDay(now - f.number.int({ min: 1, max: 20 }) * DAY);
          break;
        case 'priorAuth':
          row.priorAuthStatus = scenario.status;
          row.priorAuthMethod = pick(PRIOR_AUTH_METHODS);
          break;
        case 'substitution':
          row.substitutionStatus = scenario.status;
          break;
        case 'phone':
          row.phoneException = true;
          break;
        case 'appeal':
          row.hcpActionRequired = true;
          break;
        case 'refillAndPriorAuth':
          row.needsRefillAuth = true;
          row.priorAuthStatus = 'PRIOR_AUTH_REQUIRED';
          row.priorAuthMethod = 'CMM_PA';
          break;
        case 'none':
          break;
      }
      const earlierAnswers = addDecisionFacts(g, row, now);
      data.prescriptions.push(row);
      data.prescriptionEvents.push({ prescriptionId: rxId, type: 'RECEIVED', data: { source: 'seed' }, createdAt: prescribedAt });
      data.prescriptionEvents.push(...earlierAnswers);
      if (row.hcpActionRequired) {
        const prescriberNpi = npiOfStaff.get(row.prescriberId) ?? '1234567893';
        const appealId = uuid();
        data.appeals.push({
          id: appealId,
          accessKeyHash: sha256(demoAppealKey(appealId)),
          accessKeyExpiresAt: new Date(now + APPEAL_LINK_DAYS * DAY),
          prescriptionId: rxId,
          status: 'HCP_ACTION_REQUIRED',
          npi: prescriberNpi,
          payer: pick(PAYERS),
          denialReason: pick([
            'Step therapy required',
            'Not on formulary',
            'Quantity limit exceeded',
            'Medical necessity not established',
          ]),
          denialDate: isoDay(now - f.number.int({ min: 1, max: 20 }) * DAY),
          whatIsNeeded: 'Letter of medical necessity and chart notes showing prior therapies tried.',
          clinicalNotesRequired: chance(0.5),
        });
      }
    }

    // Patient comments: some threads, some still unread by the office.
    if (chance(0.15)) {
      const count = f.number.int({ min: 1, max: 4 });
      // About the patient's newest prescription (no random draw: the rest of the demo data stays as it was).
      const aboutRx = data.prescriptions.at(-1);
      for (let c = 0; c < count; c += 1) {
        const commentId = uuid();
        data.comments.push({
          id: commentId,
          patientId,
          mdOfficeId: office.id,
          prescriptionId: aboutRx?.patientId === patientId ? aboutRx.id : null,
          authorName: 'Patient',
          fromPatient: true,
          body: pick([
            'Can I get a refill sent before my trip next week?',
            'The pharmacy said my insurance needs something from the doctor.',
            'I am having mild side effects, should I keep taking it?',
            'Please call me back about my prescription.',
            'My phone number changed, please update it.',
          ]),
          createdAt: ago(1 * HOUR, 20 * DAY),
        });
        data.commentMentions.push({ id: uuid(), commentId, mdOfficeId: office.id, readAt: chance(0.5) ? ago(0, HOUR) : null });
      }
    }
  }

  // Practices the provider's team keeps in Manage Communications that have no patients with us yet (being
  // onboarded, or not sending prescriptions any more): each with one prescriber. Drawn last, so adding them
  // left every value above unchanged.
  for (let p = 0; p < sizes.prospectOffices; p += 1) {
    const zip = pick(ZIPS);
    const id = uuid();
    data.mdOffices.push({
      id,
      tenantId: tenantIds.main as string,
      name: practiceName(),
      address1: f.location.streetAddress(),
      city: zip.city,
      state: zip.state,
      zip: zip.zip,
      phone: phone(),
      fax: phone(),
      email: `prospect${p + 1}@practice.demo.hcp`,
      isKeyAccount: p % 5 === 0,
      notOnboarded: p % 2 === 0,
      ...officePrefs(),
      salesUserId: p % 2 === 0 ? salesId : null,
      createdAt: ago(10 * DAY, 400 * DAY),
    });
    const staffId = uuid();
    const firstName = f.person.firstName();
    const lastName = f.person.lastName();
    data.mdStaff.push({
      id: staffId,
      tenantId: tenantIds.main as string,
      firstName,
      lastName,
      npi: npiFrom(f.string.numeric({ length: 9, allowLeadingZeros: false })),
      specialty: pick(SPECIALTIES),
      role: pick(['MD', 'DO', 'PA', 'NP', 'ARNP']),
      phone: phone(),
      fax: phone(),
      email: `${firstName}.${lastName}.p${p}@staff.demo.hcp`.toLowerCase(),
      communicationMode: pick(COMMUNICATION_MODES),
      emailOptIn: pick(EMAIL_OPT_MODES),
      createdAt: ago(10 * DAY, 400 * DAY),
    });
    data.officeMembers.push({ mdOfficeId: id, mdStaffId: staffId });
  }

  // A front-desk account at the VAM practice (its Contact modal names the account manager). Drawn last too.
  const vamOffice = offices[2] as (typeof offices)[number];
  data.users.push({
    id: uuid(),
    tenantId: tenantIds.main as string,
    email: 'vam.staff@demo.hcp',
    role: 'mdo.user',
    userType: 'mdo_user.staff',
    displayName: 'Casey Vance',
    phone: '(614) 555-0114',
    mdStaffId: vamOffice.staff[0],
    mdOfficeId: vamOffice.id,
    demoKey: 'vam',
  });

  // A second appeal for Dr. Morgan, of the other variant than the covering one, so the demo (and the tests)
  // have one to open from the portal and one to open by link. No random draws: the data above stays as it was.
  const morgan = offices[0] as (typeof offices)[number];
  const quiet = data.prescriptions.find(
    (rx) =>
      rx.mdOfficeId === morgan.id &&
      rx.prescriberId === morgan.prescribers[0] &&
      !rx.needsRefillAuth &&
      !rx.priorAuthStatus &&
      !rx.substitutionStatus &&
      !rx.phoneException &&
      !rx.hcpActionRequired,
  );
  const covering = data.appeals.find((a) =>
    data.prescriptions.some((rx) => rx.id === a.prescriptionId && rx.prescriberId === morgan.prescribers[0]),
  );
  if (quiet && covering) {
    quiet.hcpActionRequired = true;
    const appealId = uuidFrom(`demo-appeal:second:${quiet.id}`);
    data.appeals.push({
      ...covering,
      id: appealId,
      accessKeyHash: sha256(demoAppealKey(appealId)),
      prescriptionId: quiet.id as string,
      payer: 'Aetna',
      denialReason: 'Not on formulary',
      clinicalNotesRequired: !covering.clinicalNotesRequired,
    });
  }
  return data;
}

/** A stable UUID-shaped id from a name (for rows added without drawing from the seeded random stream). */
function uuidFrom(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function randomScenario(f: Faker): Scenario {
  const roll = f.number.float({ min: 0, max: 1 });
  if (roll < 0.55) return { kind: 'none' };
  if (roll < 0.72) return { kind: 'refill' };
  if (roll < 0.75) return { kind: 'postponedFuture' };
  if (roll < 0.84) return { kind: 'priorAuth', status: f.helpers.arrayElement(PRIOR_AUTH_STATUSES) };
  if (roll < 0.9) return { kind: 'substitution', status: f.helpers.arrayElement(SUBSTITUTION_PENDING_STATUSES) };
  if (roll < 0.94) return { kind: 'phone' };
  if (roll < 0.97) return { kind: 'appeal' };
  return { kind: 'refillAndPriorAuth' };
}

/** Completes a nine-digit stem with its NPI check digit. */
export const npiFrom = (stem: string): string => `${stem}${npiCheckDigit(stem)}`;

/**
 * The demo access key of a seeded appeal (what the pharmacy would send the prescriber with the link): derived
 * from the appeal id, so the seed stays deterministic and `npm start` can print a working link.
 */
export function demoAppealKey(appealId: string): string {
  return createHash('sha256').update(`demo-appeal:${appealId}`).digest('hex').slice(0, 12).toUpperCase();
}
