import { formatApiDate } from '@hcp/contract';
import { useState } from 'react';
import controls from '../../../components/controls.module.css';
import { SearchBox } from '../../../components/search-box.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { usePatientAccess } from '../api/get-patient-access.ts';
import type { DateRange } from '../api/keys.ts';
import { useAuditPatientSearch } from '../api/search-patients.ts';
import styles from '../routes/audit-trail.module.css';
import { EntriesTable } from './entries-table.tsx';
import { DateRangeForm, lastThirtyDays, messageOf } from './shared.tsx';

/** Who saw this patient: a patient of the tenant found by name or date of birth, then every access in the dates. */
export function PatientAccess() {
  const [search, setSearch] = useState('');
  const [patientId, setPatientId] = useState<string | null>(null);
  const [range, setRange] = useState<DateRange>(lastThirtyDays);
  const [page, setPage] = useState(1);
  const found = useAuditPatientSearch(search);
  const report = usePatientAccess(patientId ? { patientId, ...range, page } : null);
  return (
    <section aria-labelledby="patient-access-title" className={styles.section}>
      <h2 id="patient-access-title">Patient access report</h2>
      <p>Every read and change of one patient’s records, newest first, with who, from where and by which path.</p>
      <SearchBox
        label="Find a patient"
        formLabel="Patient search"
        hint="Last name, first name, or date of birth"
        minLength={2}
        value={search}
        onSearch={(text) => {
          setSearch(text);
          setPatientId(null);
        }}
      />
      {search.length < 2 || patientId ? null : found.isError ? (
        <p role="alert">Could not search patients. Please try again.</p>
      ) : !found.data ? (
        <p role="status">
          <Spinner /> Searching…
        </p>
      ) : found.data.records.length === 0 ? (
        <p role="status">No patient matches.</p>
      ) : (
        <ul className={styles.choices} aria-label="Patients found">
          {found.data.records.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={controls.secondary}
                onClick={() => {
                  setPatientId(p.id);
                  setPage(1);
                }}
              >
                {p.name}, born {formatApiDate(p.dob)}, {p.practice}
              </button>
            </li>
          ))}
        </ul>
      )}
      {patientId ? (
        <>
          <DateRangeForm
            value={range}
            onApply={(next) => {
              setRange(next);
              setPage(1);
            }}
          />
          {report.isError ? (
            <p role="alert">{messageOf(report.error, 'Could not load the report. Please try again.')}</p>
          ) : !report.data ? (
            <p role="status">
              <Spinner /> Loading the report…
            </p>
          ) : (
            <>
              <p className={styles.subject}>
                <strong>{report.data.patient.name}</strong>, born {formatApiDate(report.data.patient.dob)},{' '}
                {report.data.patient.practice}
              </p>
              <EntriesTable
                caption={`Access to ${report.data.patient.name}'s records`}
                entries={report.data.records}
                total={report.data.total}
                page={page}
                onPageChange={setPage}
                showPatients={false}
                isFetching={report.isFetching}
                exportRequest={{ report: 'patient-access', patientId, ...range }}
              />
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
