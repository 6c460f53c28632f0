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
import { Link, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { PatientDataNotice } from '../../../components/patient-data-notice.tsx';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { usePatientSearch } from '../../../lib/patients/search-patients.ts';
import { readSession } from '../../../lib/storage.ts';
import { useClinicalAccess } from '../../../lib/support-access/use-clinical-access.ts';

const name = (r: PatientSearchRecord) => `${capitalizeName(r.lastName)}, ${capitalizeName(r.firstName)}`;

/** What was searched: kept in the history entry, never in the URL (a patient's name or birth date in the address
 * bar would stay in the browser's history and reach any log of the page's address). Back and reload keep it. */
interface SearchState {
  q?: string;
  page?: number;
}

/** /patient-search: one box for name, date of birth or phone. */
export default function PatientSearchRoute() {
  const userId = readSession()?.userId ?? '';
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as SearchState;
  const searchText = typeof state.q === 'string' ? state.q : '';
  const page = Math.max(1, Number(state.page ?? 1) || 1);
  const setSearch = (next: SearchState) => navigate('.', { state: next });
  const { seesNoPatients } = useClinicalAccess(userId);
  const query = usePatientSearch(userId, searchText, page);

  const total = query.data?.total ?? 0;
  const pages = totalPages(total);

  if (seesNoPatients) {
    return (
      <Page title="All Patients">
        <PatientDataNotice />
      </Page>
    );
  }
  return (
    <Page title="All Patients">
      <SearchBox
        label="Search patients"
        formLabel="Patients"
        hint="Name, date of birth (MM/DD/YYYY) or phone number"
        minLength={PATIENT_SEARCH_MIN_LENGTH}
        primary
        value={searchText}
        onSearch={(text) => setSearch(text ? { q: text } : {})}
      />

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
              if (isValidPage(next, pages)) setSearch({ q: searchText, page: next });
            },
          }}
        />
      ) : (
        <p>Search for a patient of your practices to see their prescriptions.</p>
      )}
    </Page>
  );
}
