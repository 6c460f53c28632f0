import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
  webhookEndpointInputSchema,
} from '@hcp/contract';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Dialog } from '../../../components/dialog.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { Table } from '../../../components/table/table.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { byFocusKey, FOCUS_KEY, focusWhenReady } from '../../../lib/focus.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { useCreateWebhookEndpoint } from '../api/create-webhook-endpoint.ts';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints.ts';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret.ts';
import { useUpdateWebhookEndpoint } from '../api/update-webhook-endpoint.ts';
import styles from '../routes/integrations.module.css';
import { WebhookDeliveries } from './webhook-deliveries.tsx';

interface FormValues {
  url: string;
  description: string;
  events: WebhookEvent[];
}
const EMPTY: FormValues = { url: '', description: '', events: [...WEBHOOK_EVENTS] };

function AddEndpointForm({ onCreated }: { onCreated: (created: WebhookEndpointWithSecret) => void }) {
  const create = useCreateWebhookEndpoint();
  const eventsErrorId = useId();
  const { register, handleSubmit, formState, setError, reset } = useForm<FormValues>({ defaultValues: EMPTY });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (values) => {
    const parsed = webhookEndpointInputSchema.safeParse({
      url: values.url.trim(),
      events: values.events,
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
    });
    if (!parsed.success) {
      parsed.error.issues.forEach((issue, i) => {
        const field = issue.path[0] === 'events' ? 'events' : issue.path[0] === 'description' ? 'description' : 'url';
        setError(field, { message: issue.message }, { shouldFocus: i === 0 });
      });
      return;
    }
    try {
      const created = await create.mutateAsync(parsed.data);
      reset(EMPTY);
      onCreated(created);
    } catch (error) {
      setError('root.server', { message: failureText(error) });
    }
  });
  return (
    <section aria-labelledby="webhook-add-title" className={styles.panel}>
      <h3 id="webhook-add-title">Add a webhook endpoint</h3>
      <p className={styles.hint}>
        Each decision a prescriber makes is sent to this address as a signed request (Standard Webhooks) whose body is a FHIR R4
        message. Failed deliveries are retried for a day.
      </p>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField label="Address (https)" type="url" autoComplete="off" error={errors.url?.message} {...register('url')} />
        <TextField
          label="Description (optional)"
          autoComplete="off"
          error={errors.description?.message}
          {...register('description')}
        />
        <fieldset
          className={styles.events}
          aria-describedby={errors.events ? eventsErrorId : undefined}
          aria-invalid={errors.events ? true : undefined}
        >
          <legend>Events to send</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className={styles.check}>
              <input type="checkbox" value={event} {...register('events')} />
              {WEBHOOK_EVENT_LABELS[event]}
            </label>
          ))}
          {errors.events ? (
            <p id={eventsErrorId} className={styles.error}>
              {errors.events.message}
            </p>
          ) : null}
        </fieldset>
        <SubmitRow label="Add endpoint" busy={formState.isSubmitting} error={errors.root?.server?.message} />
      </form>
    </section>
  );
}

/** The secret, this once: copied by the admin into the receiver's configuration. */
/** The secret's Copy button: where focus goes when the secret is shown (the form's button was busy and let it go). */
const COPY_SECRET_ID = 'webhook-secret-copy';
/** A control that leaves focus while busy (disabled) gets it back once it is enabled again. */
const whenEnabled = (element: HTMLElement | null) => (element instanceof HTMLButtonElement && element.disabled ? null : element);

interface ShownSecret {
  endpointId: string;
  url: string;
  secret: string;
  rotated: boolean;
}

function SecretShownOnce({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      toast.success('The secret is copied.');
    } catch {
      toast.error('Could not copy: select the secret and copy it.');
    }
  };
  return (
    <section className={styles.created} aria-labelledby="webhook-secret-title" role="status">
      <h3 id="webhook-secret-title">{shown.rotated ? 'New signing secret' : 'Endpoint added'}</h3>
      <p>
        The signing secret for <code className={styles.code}>{shown.url}</code>. Copy it now: it will not be shown again.
        {shown.rotated ? ' The previous secret keeps signing beside it for 24 hours.' : ''}
      </p>
      <p>
        <code className={styles.code}>{shown.secret}</code>
      </p>
      <div className={styles.buttons}>
        <button id={COPY_SECRET_ID} type="button" className={controls.primary} onClick={copy}>
          Copy secret
        </button>
        <button type="button" className={controls.secondary} onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function statusText(endpoint: WebhookEndpoint): string {
  if (endpoint.enabled) return 'On';
  return endpoint.disabledReason === 'gone' ? 'Off: the receiver answered 410 Gone' : 'Off';
}

function countsText({ counts }: WebhookEndpoint): string {
  const parts = [`${counts.delivered} delivered today`];
  if (counts.waiting) parts.push(`${counts.waiting} waiting`);
  if (counts.failing) parts.push(`${counts.failing} failing`);
  if (counts.dead) parts.push(`${counts.dead} failed`);
  return parts.join(' · ');
}

/** Pharmacy endpoints that hear every decision (issue 20): add, turn on/off, rotate the secret, see deliveries. */
export function WebhookEndpoints() {
  const endpoints = useWebhookEndpoints();
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  // Shown, the secret takes focus on its Copy button; Done puts focus on the endpoint's row (issue 47).
  const show = (secret: ShownSecret) => {
    setShown(secret);
    focusWhenReady(() => document.getElementById(COPY_SECRET_ID));
  };
  const done = () => {
    const id = shown?.endpointId;
    setShown(null);
    focusWhenReady(() => (id ? byFocusKey(`endpoint-${id}`) : null));
  };
  const [confirmRotate, setConfirmRotate] = useState<WebhookEndpoint | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const selectedEndpoint = endpoints.data?.records.find((e) => e.id === selected) ?? null;

  const toggle = (endpoint: WebhookEndpoint) =>
    update.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: (changed) => toast.success(changed.enabled ? 'The endpoint is on.' : 'The endpoint is off.'),
        onError: (error) => toast.error(failureText(error)),
        // The button was disabled while it worked: focus back on it (now saying the opposite).
        onSettled: () => focusWhenReady(() => whenEnabled(byFocusKey(`endpoint-toggle-${endpoint.id}`))),
      },
    );

  return (
    <section aria-labelledby="webhooks-title" className={styles.section}>
      <h2 id="webhooks-title">Decisions sent to pharmacy systems</h2>
      <AddEndpointForm
        onCreated={(created) =>
          show({ endpointId: created.endpoint.id, url: created.endpoint.url, secret: created.secret, rotated: false })
        }
      />
      {shown ? <SecretShownOnce shown={shown} onDone={done} /> : null}
      <Table<WebhookEndpoint>
        caption="Webhook endpoints"
        columns={[
          {
            key: 'url',
            header: 'Address',
            cell: (e) => (
              <>
                <code className={styles.code}>{e.url}</code>
                {e.description ? <span className={styles.hint}> {e.description}</span> : null}
              </>
            ),
          },
          {
            key: 'events',
            header: 'Events',
            cell: (e) =>
              e.events.length === WEBHOOK_EVENTS.length
                ? 'All decisions'
                : e.events.map((v) => WEBHOOK_EVENT_LABELS[v]).join(', '),
          },
          { key: 'status', header: 'Status', cell: statusText },
          { key: 'deliveries', header: 'Deliveries', cell: countsText },
        ]}
        actions={(e) => (
          <div className={styles.buttons}>
            <button
              type="button"
              className={controls.secondary}
              aria-label={`Deliveries to ${e.url}`}
              {...{ [FOCUS_KEY]: `endpoint-${e.id}` }}
              aria-pressed={selected === e.id}
              onClick={() => setSelected(selected === e.id ? null : e.id)}
            >
              Deliveries
            </button>
            <button
              type="button"
              className={controls.secondary}
              aria-label={`Rotate the secret of ${e.url}`}
              onClick={() => setConfirmRotate(e)}
            >
              Rotate secret
            </button>
            <button
              type="button"
              className={controls.secondary}
              aria-label={`${e.enabled ? 'Turn off' : 'Turn on'} ${e.url}`}
              {...{ [FOCUS_KEY]: `endpoint-toggle-${e.id}` }}
              disabled={update.isPending}
              onClick={() => toggle(e)}
            >
              {e.enabled ? 'Turn off' : 'Turn on'}
            </button>
          </div>
        )}
        rows={endpoints.data?.records ?? []}
        rowKey={(e) => e.id}
        isLoading={endpoints.isPending}
        emptyMessage={
          endpoints.isError ? 'Could not load the webhook endpoints. Please try again.' : 'No webhook endpoint is registered yet.'
        }
      />
      {selectedEndpoint ? <WebhookDeliveries endpoint={selectedEndpoint} /> : null}
      <Dialog
        open={confirmRotate !== null}
        title="Rotate the signing secret?"
        onClose={() => setConfirmRotate(null)}
        actions={
          <>
            <button type="button" className={controls.secondary} onClick={() => setConfirmRotate(null)}>
              Cancel
            </button>
            <button
              type="button"
              className={controls.primary}
              disabled={rotate.isPending}
              onClick={() => {
                const endpoint = confirmRotate;
                if (!endpoint) return;
                rotate.mutate(endpoint.id, {
                  onSuccess: (result) => {
                    setConfirmRotate(null);
                    show({ endpointId: result.endpoint.id, url: result.endpoint.url, secret: result.secret, rotated: true });
                  },
                  onError: (error) => toast.error(failureText(error)),
                });
              }}
            >
              Rotate secret
            </button>
          </>
        }
      >
        <p>
          A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours, so the receiver can
          switch over without missing a message.
        </p>
      </Dialog>
    </section>
  );
}
