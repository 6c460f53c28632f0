import {
  formatPhoneDisplay,
  type MdOfficeListRecord,
  PAGE_SIZE,
  PRACTICES_EMPTY_MESSAGE,
  PRACTICES_SEARCH_PLACEHOLDER,
  totalPages,
  webPaths,
} from '@hcp/contract';
import { Link } from 'react-router';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { useMdOfficesSearch } from '../../../lib/practices/search-md-offices.ts';
import { useKeepPageInRange, useListParams } from '../../../lib/use-list-params.ts';
import styles from './manage-comms.module.css';

const location = (r: MdOfficeListRecord) => [r.city, r.state].filter(Boolean).join(', ');

/** Practices list (spec §2): search (Enter or Search, back to page 1), Create, 25 a page; query and page in the URL. */
export function PracticesList() {
  const { searchText, page, search, goToPage } = useListParams();
  const query = useMdOfficesSearch(searchText, page);
  const total = query.data?.total ?? 0;
  const pages = totalPages(total);
  useKeepPageInRange(query.data && !query.isPlaceholderData ? totalPages(query.data.total) : undefined);

  return (
    <section aria-labelledby="practices-title">
      <div className={styles.toolbar}>
        <h2 id="practices-title">Practices</h2>
        <Link to={webPaths.manageCommsPracticeCreate} className={styles.primary}>
          Create
        </Link>
      </div>
      <SearchBox label="Search practices" placeholder={PRACTICES_SEARCH_PLACEHOLDER} value={searchText} onSearch={search} />
      <Table<MdOfficeListRecord>
        caption="Practices"
        columns={[
          { key: 'name', header: 'Name', cell: (r) => r.name },
          { key: 'location', header: 'Location', cell: location },
          { key: 'phone', header: 'Phone', cell: (r) => formatPhoneDisplay(r.phoneNumber) },
          { key: 'email', header: 'Email', cell: (r) => r.email ?? '' },
          {
            key: 'key',
            header: 'Key account',
            cell: (r) =>
              r.isKeyAccount ? (
                <span className={styles['check-mark']}>
                  <span aria-hidden="true">✓</span>
                  <span className="visually-hidden">Yes</span>
                </span>
              ) : null,
          },
        ]}
        actions={(r) => (
          <Link to={webPaths.manageCommsPracticeEdit(r.id)} aria-label={`Open ${r.name}`}>
            Open
          </Link>
        )}
        rows={query.data?.records ?? []}
        rowKey={(r) => r.id}
        isLoading={query.isPending || (query.isFetching && query.isPlaceholderData)}
        emptyMessage={query.isError ? query.error.message : PRACTICES_EMPTY_MESSAGE}
        pagination={{
          page,
          limit: PAGE_SIZE,
          total,
          label: 'Practice pages',
          onPageChange: (next) => goToPage(next, pages),
        }}
      />
    </section>
  );
}
