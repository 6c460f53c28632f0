/** The part of the untyped `zipcodes` package the reference-data loader reads. */
declare module 'zipcodes' {
  interface ZipCodeRecord {
    zip: string;
    city: string;
    state: string;
    country: string;
  }
  const zipcodes: { codes: Record<string, ZipCodeRecord> };
  export default zipcodes;
}
