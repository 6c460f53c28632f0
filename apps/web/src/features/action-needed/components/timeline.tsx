import { describeDelivery, describeHold, formatDateTime, formatTime } from '@hcp/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { usePrescriptionEvents } from '../api/get-prescription-events.ts';
import styles from './action-needed.module.css';

export function Timeline({ prescriptionId, hideWhenNotFound = false }: { prescriptionId: string; hideWhenNotFound?: boolean }) {
  const events = usePrescriptionEvents(prescriptionId);
  if (hideWhenNotFound && events.error instanceof ApiError && [400, 404].includes(events.error.status)) return null;
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
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                {event.summary}
                {event.actorName ? ` — ${event.actorName}` : ''}
                {event.undone ? <span className={styles.delivery}>Undone: never sent to the pharmacy</span> : null}
                {event.heldUntil ? <span className={styles.delivery}>{describeHold(event.heldUntil, formatTime)}</span> : null}
                {event.delivery ? (
                  <span
                    className={
                      event.delivery.status === 'dead' || event.delivery.status === 'failing'
                        ? styles.deliveryProblem
                        : styles.delivery
                    }
                  >
                    {describeDelivery(event.delivery, formatTime)}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
