import { PAGE_SIZE, type PracticeWorkload, totalPages } from '@hcp/contract';
import { useState } from 'react';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { useKeepPageInRange, useListParams } from '../../../lib/use-list-params.ts';
import { usePracticeWorkload } from '../api/get-practice-workload.ts';
import styles from './action-needed.module.css';
import { SupportAccessDialog } from './support-access-dialog.tsx';

const count = (n: number) => <span className={styles.count}>{n}</span>;

/**
 * Action Needed for the provider's admin and sales users (decision 0020): how much waits at each of their
 * practices, counts only. Patients are the practice's business; to help one, open support access.
 */
export function PracticeOverview({ userId }: { userId: string }) {
  const { searchText, page, search, goToPage } = useListParams();
  const workload = usePracticeWorkload(userId, searchText, page);
  const [helping, setHelping] = useState<PracticeWorkload | null>(null);
  const total = workload.data?.total ?? 0;
  useKeepPageInRange(workload.data && !workload.isPlaceholderData ? totalPages(workload.data.total) : undefined);
  return (
    <>
      <p>
        What waits at each practice you look after. Patient details stay with the practice; to help one, open read-only support
        access.
      </p>
      <SearchBox label="Search practices" placeholder="Practice name" value={searchText} onSearch={search} />
      <Table<PracticeWorkload>
        caption="Practices by requests waiting"
        columns={[
          { key: 'name', header: 'Practice', cell: (p) => p.name },
          { key: 'where', header: 'Location', cell: (p) => [p.city, p.state].filter(Boolean).join(', ') || '—' },
          { key: 'refill', header: 'Refills', cell: (p) => count(p.counts.refillAuth) },
          { key: 'pa', header: 'Prior auth.', cell: (p) => count(p.counts.priorAuth) },
          { key: 'phone', header: 'Phone', cell: (p) => count(p.counts.phoneException) },
          { key: 'alt', header: 'Alt. meds', cell: (p) => count(p.counts.altMed) },
          { key: 'appeals', header: 'Appeals', cell: (p) => count(p.counts.appeals) },
          { key: 'total', header: 'Total', cell: (p) => <strong>{count(p.counts.total)}</strong> },
          { key: 'comments', header: 'Unread comments', cell: (p) => count(p.unreadComments) },
        ]}
        actions={(p) => (
          <button
            type="button"
            className={styles.secondary}
            onClick={() => setHelping(p)}
            aria-label={`Support access to ${p.name}`}
          >
            Support access
          </button>
        )}
        rows={workload.data?.records ?? []}
        rowKey={(p) => p.mdOfficeId}
        isLoading={workload.isPending}
        emptyMessage={workload.isError ? failureText(workload.error) : 'No practices matching your search criteria.'}
        pagination={{
          page,
          limit: PAGE_SIZE,
          total,
          onPageChange: (next) => goToPage(next, totalPages(total)),
          label: 'Practices pages',
        }}
      />
      <SupportAccessDialog userId={userId} practice={helping} onClose={() => setHelping(null)} />
    </>
  );
}
