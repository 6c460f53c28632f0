import {
  formatDateTime,
  WEBHOOK_DELIVERY_STATUS_LABELS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_LABELS,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from '@hcp/contract';
import { useState } from 'react';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { SelectField } from '../../../components/select-field.tsx';
import { Table } from '../../../components/table/table.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { DELIVERIES_PAGE_SIZE, useWebhookDeliveries } from '../api/get-webhook-deliveries.ts';
import { useRedeliverFailedWebhooks } from '../api/redeliver-failed-webhooks.ts';
import { useRedeliverWebhook } from '../api/redeliver-webhook.ts';
import styles from '../routes/integrations.module.css';

const at = (iso: string | null) => formatDateTime(iso);

function lastAnswer(d: WebhookDelivery): string {
  if (d.status === 'delivered') return `${d.lastStatus ?? 200}, ${at(d.deliveredAt)}`;
  if (d.lastError) return d.lastError;
  return d.status === 'waiting' ? 'Not sent yet' : '';
}

/** One endpoint's deliveries: what went, what fails (with the next try), what gave up — and send again. */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [status, setStatus] = useState<WebhookDeliveryStatus | undefined>(undefined);
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpoint.id, status, page);
  const redeliver = useRedeliverWebhook();
  const redeliverFailed = useRedeliverFailedWebhooks();
  return (
    <section aria-labelledby="deliveries-title" className={styles.panel}>
      <h3 id="deliveries-title">Deliveries to {endpoint.url}</h3>
      <div className={styles.toolbar}>
        <SelectField
          label="Show"
          value={status ?? ''}
          emptyLabel="All deliveries"
          options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: WEBHOOK_DELIVERY_STATUS_LABELS[s] }))}
          onChange={(event) => {
            setStatus((event.target.value || undefined) as WebhookDeliveryStatus | undefined);
            setPage(1);
          }}
        />
        <button
          type="button"
          className={controls.secondary}
          disabled={endpoint.counts.dead === 0 || redeliverFailed.isPending}
          onClick={() =>
            redeliverFailed.mutate(endpoint.id, {
              onSuccess: ({ redelivered }) => toast.success(`${redelivered} failed deliveries are being sent again.`),
              onError: (error) => toast.error(failureText(error)),
            })
          }
        >
          Redeliver all failed ({endpoint.counts.dead})
        </button>
      </div>
      <Table<WebhookDelivery>
        caption={`Deliveries to ${endpoint.url}`}
        hideCaption
        columns={[
          { key: 'event', header: 'Decision', cell: (d) => WEBHOOK_EVENT_LABELS[d.event] },
          { key: 'created', header: 'Made', cell: (d) => at(d.createdAt) },
          { key: 'status', header: 'Status', cell: (d) => WEBHOOK_DELIVERY_STATUS_LABELS[d.status] },
          { key: 'attempts', header: 'Attempts', cell: (d) => String(d.attempts) },
          { key: 'answer', header: 'Last answer', cell: lastAnswer },
          { key: 'next', header: 'Next try', cell: (d) => at(d.nextAttemptAt) },
          { key: 'id', header: 'Webhook id', cell: (d) => <code className={styles.code}>{d.id}</code> },
        ]}
        actions={(d) =>
          d.status === 'dead' || d.status === 'delivered' ? (
            <button
              type="button"
              className={controls.secondary}
              aria-label={`Redeliver ${d.id}`}
              disabled={redeliver.isPending}
              onClick={() =>
                redeliver.mutate(
                  { endpointId: endpoint.id, deliveryId: d.id },
                  {
                    onSuccess: () => toast.success('The delivery is being sent again.'),
                    onError: (error) => toast.error(failureText(error)),
                  },
                )
              }
            >
              Redeliver
            </button>
          ) : null
        }
        rows={deliveries.data?.records ?? []}
        rowKey={(d) => d.id}
        isLoading={deliveries.isPending}
        emptyMessage={deliveries.isError ? 'Could not load the deliveries. Please try again.' : 'No deliveries yet.'}
        pagination={{
          page,
          limit: DELIVERIES_PAGE_SIZE,
          total: deliveries.data?.total ?? 0,
          onPageChange: setPage,
          label: 'Deliveries pages',
        }}
      />
    </section>
  );
}
