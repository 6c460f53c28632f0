/**
 * Fixed reference data of the demo seed: brands, drug products (with the product lines the Rx-list
 * filters use), order statuses and a few ZIP codes. NDCs are made up in the 5-4-2 shape.
 */

export const DEMO_PASSWORD = 'demo-password-2026';

export const TENANTS = [
  { key: 'main', name: 'HCP Portal', title: 'HCP Portal', colour: '#0b5cab', hostnames: ['portal.hcp.localhost'] },
  { key: 'harrow', name: 'Harrow', title: 'Harrow HCP Portal', colour: '#6d2077', hostnames: ['harrow.localhost'] },
] as const;

export interface DrugSeed {
  ndc: string;
  name: string;
  strength: string;
  form: string;
  manufacturer: string;
  productLine: 'bausch' | 'tolsura' | null;
  isControlled?: boolean;
  /** The DEA schedule of a controlled substance (EPCS signs it, issue 48). */
  deaSchedule?: 'II' | 'III' | 'IV' | 'V';
}

export const DRUGS: DrugSeed[] = [
  {
    ndc: '65649-0303-03',
    name: 'Xifaxan',
    strength: '550 mg',
    form: 'tablet',
    manufacturer: 'Salix (Bausch Health)',
    productLine: 'bausch',
  },
  {
    ndc: '65649-0301-41',
    name: 'Xifaxan',
    strength: '200 mg',
    form: 'tablet',
    manufacturer: 'Salix (Bausch Health)',
    productLine: 'bausch',
  },
  {
    ndc: '65649-0551-90',
    name: 'Trulance',
    strength: '3 mg',
    form: 'tablet',
    manufacturer: 'Salix (Bausch Health)',
    productLine: 'bausch',
  },
  {
    ndc: '65649-0150-30',
    name: 'Relistor',
    strength: '150 mg',
    form: 'tablet',
    manufacturer: 'Salix (Bausch Health)',
    productLine: 'bausch',
  },
  {
    ndc: '24208-0390-05',
    name: 'Lotemax SM',
    strength: '0.38%',
    form: 'ophthalmic gel',
    manufacturer: 'Bausch + Lomb',
    productLine: 'bausch',
  },
  {
    ndc: '24208-0503-10',
    name: 'Vyzulta',
    strength: '0.024%',
    form: 'ophthalmic solution',
    manufacturer: 'Bausch + Lomb',
    productLine: 'bausch',
  },
  {
    ndc: '68968-0065-60',
    name: 'Tolsura',
    strength: '65 mg',
    form: 'capsule',
    manufacturer: 'Mayne Pharma',
    productLine: 'tolsura',
  },
  {
    ndc: '69784-0101-01',
    name: 'Trudhesa (Impel)',
    strength: '0.725 mg',
    form: 'nasal spray',
    manufacturer: 'Impel Pharmaceuticals',
    productLine: null,
  },
  {
    ndc: '72418-0030-01',
    name: 'Tyrvaya (OysterPoint)',
    strength: '0.03 mg',
    form: 'nasal spray',
    manufacturer: 'Oyster Point Pharma',
    productLine: null,
  },
  { ndc: '00378-0018-01', name: 'Atorvastatin', strength: '20 mg', form: 'tablet', manufacturer: 'Mylan', productLine: null },
  { ndc: '00093-7180-56', name: 'Lisinopril', strength: '10 mg', form: 'tablet', manufacturer: 'Teva', productLine: null },
  { ndc: '00591-2720-01', name: 'Metformin', strength: '500 mg', form: 'tablet', manufacturer: 'Actavis', productLine: null },
  { ndc: '68180-0513-01', name: 'Levothyroxine', strength: '50 mcg', form: 'tablet', manufacturer: 'Lupin', productLine: null },
  { ndc: '00781-5184-01', name: 'Amlodipine', strength: '5 mg', form: 'tablet', manufacturer: 'Sandoz', productLine: null },
  { ndc: '16729-0182-01', name: 'Sertraline', strength: '50 mg', form: 'tablet', manufacturer: 'Accord', productLine: null },
  { ndc: '00006-0277-31', name: 'Januvia', strength: '100 mg', form: 'tablet', manufacturer: 'Merck', productLine: null },
  {
    ndc: '00169-4132-12',
    name: 'Ozempic',
    strength: '1 mg/dose',
    form: 'pen injector',
    manufacturer: 'Novo Nordisk',
    productLine: null,
  },
  {
    ndc: '00074-3799-02',
    name: 'Humira',
    strength: '40 mg/0.4 mL',
    form: 'pen injector',
    manufacturer: 'AbbVie',
    productLine: null,
  },
  {
    ndc: '00023-3205-03',
    name: 'Restasis',
    strength: '0.05%',
    form: 'ophthalmic emulsion',
    manufacturer: 'Allergan',
    productLine: null,
  },
  {
    ndc: '00406-0123-01',
    name: 'Hydrocodone/APAP',
    strength: '5/325 mg',
    form: 'tablet',
    manufacturer: 'SpecGx',
    productLine: null,
    isControlled: true,
    deaSchedule: 'II',
  },
];

/**
 * Controlled products in the catalogue that the generated prescriptions never use (adding them to DRUGS would move
 * every generated record): for EPCS demos and tests of a refillable schedule. Fixed ids, for the same reason.
 */
export const EXTRA_CONTROLLED: (DrugSeed & { id: string })[] = [
  {
    id: '5e1ec7ed-0000-4000-8000-000000000c04',
    ndc: '00009-0029-01',
    name: 'Alprazolam',
    strength: '0.5 mg',
    form: 'tablet',
    manufacturer: 'Greenstone',
    productLine: null,
    isControlled: true,
    deaSchedule: 'IV',
  },
];

/** Drugs the alternative-medication screens offer, by name. */
export const ALTERNATIVES: Record<string, string[]> = {
  Januvia: ['Sitagliptin (generic)', 'Tradjenta'],
  Ozempic: ['Trulicity', 'Victoza'],
  Restasis: ['Cyclosporine 0.05% (generic)', 'Xiidra'],
  Humira: ['Amjevita', 'Hadlima'],
};

export const ORDER_STATUSES = [
  'Price Verification',
  'Pending payment approval',
  'Processing',
  'Awaiting Refill Authorization',
  'Awaiting Prior Authorization',
  'On Hold',
  'Shipped',
  'Delivered',
  'Cancelled',
  'Refill Denied',
] as const;

export const SPECIALTIES = [
  'Family Medicine',
  'Internal Medicine',
  'Gastroenterology',
  'Ophthalmology',
  'Endocrinology',
  'Dermatology',
];

export const ZIPS = [
  { zip: '43215', city: 'Columbus', state: 'OH' },
  { zip: '43004', city: 'Blacklick', state: 'OH' },
  { zip: '10001', city: 'New York', state: 'NY' },
  { zip: '60601', city: 'Chicago', state: 'IL' },
  { zip: '78701', city: 'Austin', state: 'TX' },
  { zip: '94103', city: 'San Francisco', state: 'CA' },
  { zip: '98101', city: 'Seattle', state: 'WA' },
  { zip: '37203', city: 'Nashville', state: 'TN' },
  { zip: '30303', city: 'Atlanta', state: 'GA' },
  { zip: '02108', city: 'Boston', state: 'MA' },
];

export const SIGS = [
  'Take 1 tablet by mouth once daily',
  'Take 1 tablet by mouth twice daily with food',
  'Instill 1 drop in each eye twice daily',
  'Inject 1 pen subcutaneously once weekly',
  'Take 1 capsule by mouth twice daily with meals',
  'Use 1 spray in each nostril as directed',
];

export const PAYERS = ['Aetna', 'Cigna', 'UnitedHealthcare', 'Humana', 'Blue Cross Blue Shield', 'Medicare Part D'];
