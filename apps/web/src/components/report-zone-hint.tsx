import { useReportTimeZone } from '../lib/brand/brand.tsx';
import styles from './day-field.module.css';

/**
 * Says in which zone a report's days run (AUDIT_TIME_ZONE): an administrator elsewhere reads "today" as that zone's
 * today, and a day as its midnight to midnight.
 */
export function ReportZoneHint() {
  const zone = useReportTimeZone();
  return <p className={styles.hint}>Days run midnight to midnight, {zone.replaceAll('_', ' ')} time.</p>;
}
