import {
  formatPhoneDisplay,
  type MdStaffListRecord,
  PAGE_SIZE,
  STAFF_EMPTY_MESSAGE,
  STAFF_SEARCH_PLACEHOLDER,
  totalPages,
  webPaths,
} from '@hcp/contract';
import { Link } from 'react-router';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { useKeepPageInRange, useListParams } from '../../../lib/use-list-params.ts';
import { useStaffSearch } from '../api/search-staff.ts';
import styles from './manage-comms.module.css';
import { staffIdentityColumns } from './staff-columns.tsx';

/** HCPs and Staff: the same list screen as Practices, over people. */
export function HcpsList() {
  const { searchText, page, search, goToPage } = useListParams();
  const query = useStaffSearch(searchText, page);
  const total = query.data?.total ?? 0;
  const pages = totalPages(total);
  useKeepPageInRange(query.data && !query.isPlaceholderData ? totalPages(query.data.total) : undefined);
  return (
    <section aria-labelledby="hcps-title">
      <div className={styles.toolbar}>
        <h2 id="hcps-title">HCPs and Staff</h2>
        <Link to={webPaths.manageCommsHcpCreate} className={styles.primary}>
          Create
        </Link>
      </div>
      <SearchBox label="Search HCPs and staff" placeholder={STAFF_SEARCH_PLACEHOLDER} value={searchText} onSearch={search} />
      <Table<MdStaffListRecord>
        caption="HCPs and Staff"
        hideCaption
        columns={[
          ...staffIdentityColumns,
          { key: 'practices', header: 'Practices', cell: (r) => r.practiceNames.join(', ') },
          { key: 'phone', header: 'Phone', cell: (r) => formatPhoneDisplay(r.phoneNumber) },
          { key: 'email', header: 'Email', cell: (r) => r.email ?? '' },
        ]}
        actions={(r) => (
          <Link to={webPaths.manageCommsHcpEdit(r.id)} aria-label={`Open ${r.name}`}>
            Open
          </Link>
        )}
        rows={query.data?.records ?? []}
        rowKey={(r) => r.id}
        isLoading={query.isPending || (query.isFetching && query.isPlaceholderData)}
        emptyMessage={query.isError ? query.error.message : STAFF_EMPTY_MESSAGE}
        pagination={{
          page,
          limit: PAGE_SIZE,
          total,
          label: 'HCP and staff pages',
          onPageChange: (next) => goToPage(next, pages),
        }}
      />
    </section>
  );
}
