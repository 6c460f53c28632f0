import {
  capitalizeName,
  formatApiDate,
  formatPhoneDisplay,
  isValidPage,
  PATIENT_SEARCH_EMPTY_MESSAGE,
  PATIENT_SEARCH_MIN_LENGTH,
  type PatientSearchRecord,
  totalPages,
  webPaths,
} from '@hcp/contract';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { Table } from '../../../components/table/table.tsx';
import { usePatientSearch } from '../../../lib/patients/search-patients.ts';
import { readSession } from '../../../lib/storage.ts';
import styles from '../components/patients.module.css';

const name = (r: PatientSearchRecord) => `${capitalizeName(r.lastName)}, ${capitalizeName(r.firstName)}`;

/** /patient-search: one box for name, date of birth or phone; the query and page live in the URL (?q=&page=). */
export default function PatientSearchRoute() {
  const userId = readSession()?.userId ?? '';
  const inputId = useId();
  const hintId = useId();
  const [params, setParams] = useSearchParams();
  const searchText = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const [draft, setDraft] = useState(searchText);
  const [tooShort, setTooShort] = useState(false);
  const query = usePatientSearch(userId, searchText, page);

  const submit = (text: string) => {
    const trimmed = text.trim();
    if (trimmed.length > 0 && trimmed.length < PATIENT_SEARCH_MIN_LENGTH) {
      setTooShort(true);
      return;
    }
    setTooShort(false);
    setParams(trimmed ? { q: trimmed } : {});
  };
  const total = query.data?.total ?? 0;
  const pages = totalPages(total);

  return (
    <Page title="All Patients">
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is unknown to jsdom and older screen readers; role="search" is understood everywhere */}
      <form
        role="search"
        aria-label="Patients"
        className={styles.search}
        onSubmit={(event) => {
          event.preventDefault();
          submit(draft);
        }}
      >
        <div className={styles.field}>
          <label htmlFor={inputId}>Search patients</label>
          <p id={hintId} className={styles.hint}>
            Name, date of birth (MM/DD/YYYY) or phone number
          </p>
          <div className={styles.inputWrap}>
            <input
              id={inputId}
              type="search"
              className={styles.input}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              aria-describedby={tooShort ? `${hintId} ${inputId}-error` : hintId}
              aria-invalid={tooShort || undefined}
              autoComplete="off"
            />
            {draft ? (
              <button
                type="button"
                className={styles.clear}
                aria-label="Clear search"
                onClick={() => {
                  setDraft('');
                  submit('');
                  document.getElementById(inputId)?.focus();
                }}
              >
                ×
              </button>
            ) : null}
          </div>
          {tooShort ? (
            <span id={`${inputId}-error`} role="alert">
              Type at least {PATIENT_SEARCH_MIN_LENGTH} characters.
            </span>
          ) : null}
        </div>
        <button type="submit" className={styles.button}>
          Search
        </button>
      </form>

      {searchText ? (
        <Table<PatientSearchRecord>
          caption={`Patients matching “${searchText}”`}
          columns={[
            { key: 'name', header: 'Patient', cell: (r) => <Link to={webPaths.patientDetail(r.id)}>{name(r)}</Link> },
            { key: 'dob', header: 'Date of birth', cell: (r) => formatApiDate(r.dob) },
            { key: 'phone', header: 'Phone', cell: (r) => r.phoneNumbers.map(formatPhoneDisplay).join(', ') },
            { key: 'practice', header: 'Practice', cell: (r) => r.practiceName },
            { key: 'action', header: 'Needs action', cell: (r) => (r.actionNeededCount > 0 ? r.actionNeededCount : '—') },
          ]}
          rows={query.data?.records ?? []}
          rowKey={(r) => r.id}
          isLoading={query.isFetching && !query.data}
          emptyMessage={query.isError ? 'Could not search right now. Please try again.' : PATIENT_SEARCH_EMPTY_MESSAGE}
          pagination={{
            page,
            limit: 25,
            total,
            label: 'Patient result pages',
            onPageChange: (next) => {
              if (isValidPage(next, pages)) setParams({ q: searchText, page: String(next) });
            },
          }}
        />
      ) : (
        <p>Search for a patient of your practices to see their prescriptions.</p>
      )}
    </Page>
  );
}
