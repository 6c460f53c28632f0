/**
 * The reports' days (AUDIT_TIME_ZONE, named by the tenant answer): the audit trail's and EPCS's "today" and the hint
 * that says which zone they run in. Kept out of lib/brand so the date code stays off the entry (every page loads it).
 */
import { dayInZone } from '@hcp/contract';
import { useReportTimeZone } from '../lib/brand/brand.tsx';
import styles from './day-field.module.css';

/** Today in the reports' zone, YYYY-MM-DD. */
export const useReportToday = (): string => dayInZone(useReportTimeZone());

/** The reports' calendar day of an instant, YYYY-MM-DD: the reports' zone is read here and nowhere else. */
export function useReportDayOf(): (iso: string) => string {
  const zone = useReportTimeZone();
  return (iso: string) => dayInZone(zone, new Date(iso));
}

/**
 * Says in which zone a report's days run: an administrator elsewhere reads "today" as that zone's today, and a day
 * as its midnight to midnight.
 */
export function ReportZoneHint() {
  const zone = useReportTimeZone();
  return <p className={styles.hint}>Days run midnight to midnight, {zone.replaceAll('_', ' ')} time.</p>;
}
