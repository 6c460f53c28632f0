import { usePrescriptionEvents } from '../api/get-prescription-events.ts';
import styles from './action-needed.module.css';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function Timeline({ prescriptionId }: { prescriptionId: string }) {
  const events = usePrescriptionEvents(prescriptionId);
  return (
    <section className={styles.panel} aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      {events.isPending ? <p aria-busy="true">Loading the timeline…</p> : null}
      {events.isError ? <p>Could not load the timeline.</p> : null}
      {events.data ? (
        events.data.length === 0 ? (
          <p>No events yet.</p>
        ) : (
          <ol className={styles.timeline}>
            {events.data.map((event) => (
              <li key={event.id}>
                <time dateTime={event.at}>{when.format(new Date(event.at))}</time>
                {event.summary}
                {event.actorName ? ` — ${event.actorName}` : ''}
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
