import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { SearchBox } from '../../../components/search-box.tsx';
import { useUserActivity } from '../api/get-user-activity.ts';
import { useAuditUsers } from '../api/get-users.ts';
import type { DateRange } from '../api/keys.ts';
import styles from '../routes/audit-trail.module.css';
import { Choices, Report } from './report.tsx';
import { useReportRange } from './shared.tsx';

/** What this person did: one user of the tenant, every action in the dates, with the patients each was about. */
export function UserActivity({ selfId }: { selfId: string }) {
  // A support window's "What was read" opens this report on its person and days (ids and dates only in the URL).
  const [params] = useSearchParams();
  const linked = params.get('userId');
  const linkedRange = params.get('from') && params.get('to') ? { from: params.get('from'), to: params.get('to') } : null;
  const [search, setSearch] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(linked);
  const [range, setRange] = useReportRange(linkedRange as DateRange | null);
  const [page, setPage] = useState(1);
  const users = useAuditUsers(search);
  const report = useUserActivity(userId ? { userId, ...range, page } : null);
  return (
    <section aria-labelledby="user-activity-title" className={styles.section}>
      <h2 id="user-activity-title">User activity report</h2>
      <p>Everything one person did in the portal, newest first. Your own activity is for another privacy officer to review.</p>
      <SearchBox
        label="Find a person"
        formLabel="People search"
        hint="Name or e-mail address"
        value={search ?? ''}
        onSearch={(text) => {
          setSearch(text);
          setUserId(null);
        }}
      />
      <Choices
        query={users}
        shown={search !== null && !userId}
        label="People found"
        failure="Could not load people. Please try again."
        empty="No one matches."
        itemOf={(u) => ({
          text: `${u.name} (${u.email})${u.practice ? `, ${u.practice}` : ''}${u.id === selfId ? ' — you' : ''}`,
          disabled: u.id === selfId,
        })}
        onChoose={(id) => {
          setUserId(id);
          setPage(1);
        }}
      />
      {userId ? (
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
              <strong>{data.user.name}</strong> ({data.user.email}), {data.user.role}
              {data.user.practice ? `, ${data.user.practice}` : ''}
            </>
          )}
          caption={(data) => `Activity of ${data.user.name}`}
          showPatients
          exportTarget={{ report: 'user-activity', userId, ...range }}
        />
      ) : null}
    </section>
  );
}
