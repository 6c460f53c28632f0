import { formatApiDate, formatApiDateTime, formatClock12 } from '@hcp/contract';

/** An instant as 'MM/DD/YYYY h:mm am/pm' in the reader's time zone (the portal's date display). */
export function formatInstant(iso: string): string {
  const at = new Date(iso);
  return `${formatApiDate(formatApiDateTime(at))} ${formatClock12(at.getHours(), at.getMinutes())}`;
}
