import {
  canManageAccounts,
  type IntegrationClient,
  type IntegrationClientInput,
  integrationClientInputSchema,
} from '@hcp/contract';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Page } from '../../../components/page.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { Table } from '../../../components/table/table.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { readSession } from '../../../lib/storage.ts';
import { useCreateIntegrationClient } from '../api/create-integration-client.ts';
import { useDisableIntegrationClient } from '../api/disable-integration-client.ts';
import { useIntegrationClients } from '../api/get-integration-clients.ts';
import { WebhookEndpoints } from '../components/webhook-endpoints.tsx';
import styles from './integrations.module.css';

interface FormValues {
  name: string;
  scopes: string;
  jwksText: string;
  jwksUrl: string;
}
const EMPTY: FormValues = { name: '', scopes: 'system/Task.write system/Patient.write system/*.read', jwksText: '', jwksUrl: '' };
/** Where the contract's field errors land on this form (the key set is typed as text here). */
const FIELD_OF: Record<string, keyof FormValues> = { name: 'name', scopes: 'scopes', jwks: 'jwksText', jwksUrl: 'jwksUrl' };

/** The form's text as the contract's input, or the problems to show at their fields. */
function toInput(values: FormValues): { input: IntegrationClientInput } | { problems: [keyof FormValues, string][] } {
  let jwks: unknown;
  if (values.jwksText.trim()) {
    try {
      jwks = JSON.parse(values.jwksText);
    } catch {
      return { problems: [['jwksText', 'The key set is not valid JSON.']] };
    }
  }
  const parsed = integrationClientInputSchema.safeParse({
    name: values.name,
    scopes: values.scopes.split(/\s+/).filter(Boolean),
    ...(jwks !== undefined ? { jwks } : {}),
    ...(values.jwksUrl.trim() ? { jwksUrl: values.jwksUrl.trim() } : {}),
  });
  if (parsed.success) return { input: parsed.data };
  return {
    problems: parsed.error.issues.map(
      (issue) => [FIELD_OF[String(issue.path[0])] ?? 'name', issue.message] as [keyof FormValues, string],
    ),
  };
}

function RegisterForm({ onCreated }: { onCreated: (client: IntegrationClient) => void }) {
  const create = useCreateIntegrationClient();
  const ids = { jwks: useId(), hint: useId() };
  const { register, handleSubmit, formState, setError, reset } = useForm<FormValues>({ defaultValues: EMPTY });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (values) => {
    const result = toInput(values);
    if ('problems' in result) {
      result.problems.forEach(([field, message], i) => {
        setError(field, { message }, { shouldFocus: i === 0 });
      });
      return;
    }
    try {
      const created = await create.mutateAsync(result.input);
      reset(EMPTY);
      onCreated(created);
      toast.success(`${created.name} is registered.`);
    } catch (error) {
      setError('root.server', { message: failureText(error) });
    }
  });
  return (
    <section aria-labelledby="register-title" className={styles.panel}>
      <h2 id="register-title">Register a pharmacy system</h2>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Scopes (separated by spaces)"
          autoComplete="off"
          spellCheck={false}
          error={errors.scopes?.message}
          {...register('scopes')}
        />
        <div className={styles.field}>
          <label htmlFor={ids.jwks}>Public key set (JWKS JSON)</label>
          <p id={ids.hint} className={styles.hint}>
            The system’s public keys (RS384 or ES384). Paste the key set, or give its https address below: one of the two.
          </p>
          <textarea
            id={ids.jwks}
            className={styles.keys}
            spellCheck={false}
            aria-describedby={[ids.hint, errors.jwksText ? `${ids.jwks}-error` : ''].filter(Boolean).join(' ')}
            aria-invalid={errors.jwksText ? true : undefined}
            {...register('jwksText')}
          />
          {errors.jwksText ? (
            <p id={`${ids.jwks}-error`} className={styles.error}>
              {errors.jwksText.message}
            </p>
          ) : null}
        </div>
        <TextField
          label="Or the key set’s https address"
          type="url"
          autoComplete="off"
          error={errors.jwksUrl?.message}
          {...register('jwksUrl')}
        />
        <SubmitRow label="Register" busy={formState.isSubmitting} error={errors.root?.server?.message} />
      </form>
    </section>
  );
}

function Clients() {
  const clients = useIntegrationClients();
  const disable = useDisableIntegrationClient();
  const [created, setCreated] = useState<IntegrationClient | null>(null);
  return (
    <>
      <RegisterForm onCreated={setCreated} />
      {created ? (
        <section className={styles.created} aria-labelledby="created-title" role="status">
          <h2 id="created-title">{created.name} is registered</h2>
          <p>
            Its client id, for the <code>iss</code> and <code>sub</code> of its sign-in assertions:{' '}
            <code className={styles.code}>{created.clientId}</code>
          </p>
        </section>
      ) : null}
      <Table<IntegrationClient>
        caption="Pharmacy systems"
        columns={[
          { key: 'name', header: 'Name', cell: (c) => c.name },
          { key: 'id', header: 'Client id', cell: (c) => <code className={styles.code}>{c.clientId}</code> },
          { key: 'scopes', header: 'Scopes', cell: (c) => c.scopes.join(' ') },
          { key: 'keys', header: 'Keys', cell: (c) => (c.jwksUrl ? c.jwksUrl : `${c.keyCount} key(s)`) },
          { key: 'status', header: 'Status', cell: (c) => (c.disabled ? 'Disabled' : 'Enabled') },
        ]}
        actions={(c) =>
          c.disabled ? null : (
            <button
              type="button"
              className={controls.secondary}
              aria-label={`Disable ${c.name}`}
              disabled={disable.isPending}
              onClick={() =>
                disable.mutate(c.id, {
                  onSuccess: () => toast.success(`${c.name} can no longer sign in.`),
                  onError: (error) => toast.error(failureText(error)),
                })
              }
            >
              Disable
            </button>
          )
        }
        rows={clients.data?.records ?? []}
        rowKey={(c) => c.id}
        isLoading={clients.isPending}
        emptyMessage={
          clients.isError ? 'Could not load the pharmacy systems. Please try again.' : 'No pharmacy system is registered yet.'
        }
      />
    </>
  );
}

/**
 * /manage-integrations (our addition, decisions 0022 and 0024): an admin registers the pharmacy's systems and the
 * endpoints that hear every decision.
 */
export default function ManageIntegrationsRoute() {
  const user = useUserDetails(readSession()?.userId ?? null);
  return (
    <Page title="Pharmacy Systems">
      {user.data && canManageAccounts(user.data) ? (
        <>
          <Clients />
          <WebhookEndpoints />
        </>
      ) : user.data ? (
        <p role="alert">Only administrators can register pharmacy systems.</p>
      ) : (
        <p role="status">Loading…</p>
      )}
    </Page>
  );
}
