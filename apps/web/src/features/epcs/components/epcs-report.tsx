import { type EpcsReport, formatDateTime } from '@hcp/contract';
import { useState } from 'react';
import controls from '../../../components/controls.module.css';
import { DayField } from '../../../components/day-field.tsx';
import { ReportZoneHint, useReportToday } from '../../../components/report-zone.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Table } from '../../../components/table/table.tsx';
import { useEpcsReport } from '../api/get-epcs-report.ts';
import styles from '../routes/controlled-substances.module.css';

type Signed = EpcsReport['signed'][number];
type Incident = EpcsReport['incidents'][number];

/** A practice's EPCS report of a day (21 CFR 1311.215): the controlled prescriptions signed, and the incidents. */
export function EpcsReportSection({ practiceId, practiceName }: { practiceId: string; practiceName: string }) {
  const today = useReportToday();
  // Until typed in, the field shows today (which can still move to the reports' zone once the tenant answer is here).
  const [typed, setTyped] = useState<string | null>(null);
  const shownDay = typed ?? today;
  const [day, setDay] = useState<string | null>(null);
  const report = useEpcsReport(practiceId, day);
  const titleId = `epcs-report-${practiceId}`;
  return (
    <section aria-labelledby={titleId} className={styles.section}>
      <h2 id={titleId}>Daily EPCS report, {practiceName}</h2>
      <form
        className={styles.reportForm}
        onSubmit={(event) => {
          event.preventDefault();
          if (shownDay) setDay(shownDay);
        }}
      >
        <DayField label="Day" name="day" value={shownDay} onChange={setTyped} today={today} max={today} />
        <button type="submit" className={controls.secondary}>
          Show report
        </button>
        <ReportZoneHint />
      </form>
      {day === null ? null : report.isError ? (
        <p role="alert">Could not load the report. Please try again.</p>
      ) : !report.data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <>
          <Table<Signed>
            caption={`Controlled substances signed on ${report.data.day}`}
            rows={report.data.signed}
            rowKey={(s) => `${s.signedAt}-${s.keyId}-${s.patient}`}
            emptyMessage="No controlled substance was signed that day."
            columns={[
              { key: 'at', header: 'Signed', cell: (s) => formatDateTime(s.signedAt) },
              { key: 'prescriber', header: 'Prescriber', cell: (s) => `${s.prescriber} (${s.dea})` },
              { key: 'patient', header: 'Patient', cell: (s) => s.patient },
              { key: 'drug', header: 'Drug', cell: (s) => `${s.drug} (C-${s.schedule})` },
              { key: 'quantity', header: 'Quantity', cell: (s) => (s.quantity === null ? '—' : String(s.quantity)) },
              { key: 'refills', header: 'Refills', cell: (s) => String(s.refills) },
            ]}
          />
          <Table<Incident>
            caption={`Incidents and permission changes on ${report.data.day}`}
            rows={report.data.incidents}
            rowKey={(i) => `${i.at}-${i.kind}-${i.detail}`}
            emptyMessage="No incidents that day."
            columns={[
              { key: 'at', header: 'When', cell: (i) => formatDateTime(i.at) },
              { key: 'who', header: 'Who', cell: (i) => i.who },
              { key: 'detail', header: 'What', cell: (i) => i.detail },
            ]}
          />
        </>
      )}
    </section>
  );
}
