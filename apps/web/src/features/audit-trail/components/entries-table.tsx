import { AUDIT_CHANNEL_LABELS, AUDIT_PAGE_SIZE, type AuditEntry, auditRowPatients, formatDateTime } from '@hcp/contract';
import controls from '../../../components/controls.module.css';
import { Table } from '../../../components/table/table.tsx';
import { type ExportTarget, useAuditExport } from '../api/download-export.ts';
import styles from '../routes/audit-trail.module.css';
import { messageOf } from './shared.tsx';

/** A report's rows: when, who (role and practice), what, the path it came by and from where; 50 a page. */
export function EntriesTable({
  caption,
  entries,
  total,
  page,
  onPageChange,
  showPatients,
  exportRequest,
  isFetching,
}: {
  caption: string;
  entries: readonly AuditEntry[];
  total: number;
  page: number;
  onPageChange: (page: number) => void;
  showPatients: boolean;
  exportRequest: ExportTarget;
  isFetching: boolean;
}) {
  const exporting = useAuditExport();
  return (
    <>
      <div className={styles.buttons}>
        {(['csv', 'fhir'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className={controls.secondary}
            disabled={exporting.isPending || total === 0}
            onClick={() => exporting.mutate({ ...exportRequest, format })}
          >
            {format === 'csv' ? 'Export CSV' : 'Export FHIR AuditEvents'}
          </button>
        ))}
      </div>
      {exporting.isError ? (
        <p role="alert" className={styles.error}>
          {messageOf(exporting.error, 'Could not export the report. Please try again.')}
        </p>
      ) : null}
      <p role="status" className={styles.count}>
        {isFetching ? 'Loading…' : `${total.toLocaleString('en-US')} ${total === 1 ? 'entry' : 'entries'}`}
      </p>
      <Table<AuditEntry>
        caption={caption}
        rows={entries}
        rowKey={(e) => e.id}
        emptyMessage="Nothing was recorded in these dates."
        columns={[
          { key: 'at', header: 'When', cell: (e) => formatDateTime(e.at) },
          {
            key: 'who',
            header: 'Who',
            cell: (e) => (
              <>
                {e.actor.name ?? 'Unknown'}
                <span className={styles.sub}>{[e.actor.role, e.actor.practice].filter(Boolean).join(', ')}</span>
              </>
            ),
          },
          {
            key: 'what',
            header: 'What',
            cell: (e) => (e.outcome === 'refused' ? <strong>{e.description}</strong> : e.description),
          },
          ...(showPatients
            ? [
                {
                  key: 'patients',
                  header: 'Patients',
                  cell: (e: AuditEntry) => <RowPatients names={(e.patients ?? []).map((p) => p.name)} />,
                },
              ]
            : []),
          { key: 'path', header: 'Path', cell: (e) => AUDIT_CHANNEL_LABELS[e.channel] },
          { key: 'ip', header: 'IP address', cell: (e) => e.ip ?? '—' },
        ]}
        pagination={{ page, limit: AUDIT_PAGE_SIZE, total, onPageChange, label: `${caption} pages` }}
      />
    </>
  );
}

/** A row's patients: the first few by name, the rest behind a disclosure (a list read names every patient it showed). */
function RowPatients({ names }: { names: readonly (string | null)[] }) {
  if (names.length === 0) return '—';
  const { first, rest } = auditRowPatients(names);
  if (rest.length === 0) return first;
  return (
    <>
      {first}
      <details className={styles.morePatients}>
        <summary>and {rest.length} more</summary>
        {rest.join(', ')}
      </details>
    </>
  );
}
