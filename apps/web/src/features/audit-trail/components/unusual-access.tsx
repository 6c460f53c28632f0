import {
  formatDateTime,
  UNUSUAL_ACCESS_RULE_KEYS,
  UNUSUAL_ACCESS_RULES,
  type UnusualAccessFinding,
  type UnusualAccessRule,
} from '@hcp/contract';
import { useState } from 'react';
import { SelectField } from '../../../components/select-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import type { ReviewStatus } from '../api/get-support-windows.ts';
import { useUnusualAccess } from '../api/get-unusual-access.ts';
import { useReviewFinding } from '../api/review-finding.ts';
import styles from '../routes/audit-trail.module.css';
import { DateRangeForm, messageOf, ReviewCell, useReportRange } from './shared.tsx';
import { STATUS_OPTIONS } from './support-windows.tsx';

const RULE_OPTIONS = [
  { value: '', label: 'Every rule' },
  ...UNUSUAL_ACCESS_RULE_KEYS.map((rule) => ({ value: rule, label: UNUSUAL_ACCESS_RULES[rule].title })),
];

/** Unusual access: the three simple rules, explained, and their findings; each cleared once with a note. */
export function UnusualAccess({ selfId }: { selfId: string }) {
  const [range, setRange] = useReportRange();
  const [filters, setFilters] = useState<{ status: ReviewStatus; rule: UnusualAccessRule | '' }>({ status: 'open', rule: '' });
  const [draft, setDraft] = useState(filters);
  const findings = useUnusualAccess({ ...range, status: filters.status, rule: filters.rule || undefined });
  const review = useReviewFinding();
  return (
    <section aria-labelledby="unusual-access-title" className={styles.section}>
      <h2 id="unusual-access-title">Unusual access</h2>
      <p>Three simple rules point at accesses worth a look. None of them blocks anyone; clear each with what you found.</p>
      <dl className={styles.rules}>
        {UNUSUAL_ACCESS_RULE_KEYS.map((rule) => (
          <div key={rule}>
            <dt>{UNUSUAL_ACCESS_RULES[rule].title}</dt>
            <dd>{UNUSUAL_ACCESS_RULES[rule].explanation}</dd>
          </div>
        ))}
      </dl>
      <DateRangeForm
        value={range}
        onApply={(next) => {
          setRange(next);
          setFilters(draft);
        }}
      >
        <SelectField
          label="Rule"
          options={RULE_OPTIONS}
          value={draft.rule}
          onChange={(event) => setDraft({ ...draft, rule: event.target.value as UnusualAccessRule | '' })}
        />
        <SelectField
          label="Show"
          options={STATUS_OPTIONS}
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value as ReviewStatus })}
        />
      </DateRangeForm>
      {findings.isError ? (
        <p role="alert">{messageOf(findings.error, 'Could not load the findings. Please try again.')}</p>
      ) : !findings.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <>
          {UNUSUAL_ACCESS_RULE_KEYS.filter((rule) => (findings.data.totals[rule] ?? 0) > findings.data.perRule).map((rule) => (
            <p key={rule} role="status">
              {UNUSUAL_ACCESS_RULES[rule].title}: the newest {findings.data.perRule} of{' '}
              {(findings.data.totals[rule] ?? 0).toLocaleString('en-US')} are shown. Narrow the dates to see the rest.
            </p>
          ))}
          <Table<UnusualAccessFinding>
            caption="Findings"
            rows={findings.data.records}
            rowKey={(f) => f.key}
            emptyMessage={
              filters.status === 'open' ? 'Nothing unusual waits for review in these dates.' : 'Nothing unusual in these dates.'
            }
            columns={[
              { key: 'rule', header: 'Rule', cell: (f) => UNUSUAL_ACCESS_RULES[f.rule].title },
              {
                key: 'who',
                header: 'Who',
                cell: (f) => (
                  <>
                    {f.user.name}
                    {f.user.practice ? <span className={styles.sub}>{f.user.practice}</span> : null}
                  </>
                ),
              },
              {
                key: 'when',
                header: 'When',
                cell: (f) => (f.from === f.to ? formatDateTime(f.from) : `${formatDateTime(f.from)} – ${formatDateTime(f.to)}`),
              },
              {
                key: 'what',
                header: 'Read',
                cell: (f) =>
                  f.patient
                    ? `${f.patient.name}, ${f.reads} ${f.reads === 1 ? 'time' : 'times'}`
                    : `${f.reads} ${f.reads === 1 ? 'time' : 'times'}, ${f.patients} ${f.patients === 1 ? 'patient' : 'patients'}`,
              },
              {
                key: 'review',
                header: 'Review',
                cell: (f) => (
                  <ReviewCell
                    review={f.review}
                    own={f.user.id === selfId}
                    label="Clear"
                    pending={review.isPending}
                    save={(note) => review.mutateAsync({ key: f.key, note })}
                  />
                ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
