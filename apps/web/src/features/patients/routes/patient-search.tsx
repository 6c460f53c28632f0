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
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { usePatientSearch } from '../../../lib/patients/search-patients.ts';
import { readSession } from '../../../lib/storage.ts';

const name = (r: PatientSearchRecord) => `${capitalizeName(r.lastName)}, ${capitalizeName(r.firstName)}`;

/** /patient-search: one box for name, date of birth or phone; the query and page live in the URL (?q=&page=). */
export default function PatientSearchRoute() {
  const userId = readSession()?.userId ?? '';
  const [params, setParams] = useSearchParams();
  const searchText = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const query = usePatientSearch(userId, searchText, page);

  const total = query.data?.total ?? 0;
  const pages = totalPages(total);

  return (
    <Page title="All Patients">
      <SearchBox
        label="Search patients"
        formLabel="Patients"
        hint="Name, date of birth (MM/DD/YYYY) or phone number"
        minLength={PATIENT_SEARCH_MIN_LENGTH}
        type="search"
        primary
        value={searchText}
        onSearch={(text) => setParams(text ? { q: text } : {})}
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
