import { formatApiDate } from '@hcp/contract';
import { useState } from 'react';
import { SearchBox } from '../../../components/search-box.tsx';
import { usePatientAccess } from '../api/get-patient-access.ts';
import { useAuditPatientSearch } from '../api/search-patients.ts';
import styles from '../routes/audit-trail.module.css';
import { Choices, Report } from './report.tsx';
import { useReportRange } from './shared.tsx';

/** Who saw this patient: a patient of the tenant found by name or date of birth, then every access in the dates. */
export function PatientAccess() {
  const [search, setSearch] = useState('');
  const [patientId, setPatientId] = useState<string | null>(null);
  const [range, setRange] = useReportRange();
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
      <Choices
        query={found}
        shown={search.length >= 2 && !patientId}
        label="Patients found"
        failure="Could not search patients. Please try again."
        empty="No patient matches."
        itemOf={(p) => ({ text: `${p.name}, born ${formatApiDate(p.dob)}, ${p.practice}` })}
        onChoose={(id) => {
          setPatientId(id);
          setPage(1);
        }}
      />
      {patientId ? (
        <Report
          query={report}
          range={range}
          onRange={(next) => {
            setRange(next);
            setPage(1);
          }}
          page={page}
          onPage={setPage}
          subject={(data) => (
            <>
              <strong>{data.patient.name}</strong>, born {formatApiDate(data.patient.dob)}, {data.patient.practice}
            </>
          )}
          caption={(data) => `Access to ${data.patient.name}'s records`}
          showPatients={false}
          exportTarget={{ report: 'patient-access', patientId, ...range }}
        />
      ) : null}
    </section>
  );
}
