import {
  type AuthenticatorSetup,
  confirmAuthenticatorSchema,
  formatDateTime,
  normalizeError,
  PASSKEY_MESSAGES,
  PASSKEY_NAME_MAX,
  type Passkey,
  passkeyNameSchema,
  RECOVERY_CODES,
  reauthenticateSchema,
  SIGN_IN_FACTOR_MESSAGES,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { focusWhenReady } from '../../../lib/focus.ts';
import { passkeyFailure, passkeysSupported } from '../../../lib/webauthn.ts';
import { useAddPasskey } from '../api/add-passkey.ts';
import { useConfirmAuthenticator } from '../api/confirm-authenticator.ts';
import { useSignInFactors } from '../api/get-sign-in-factors.ts';
import { useNewRecoveryCodes } from '../api/new-recovery-codes.ts';
import { useRemoveAuthenticator } from '../api/remove-authenticator.ts';
import { useRemovePasskey } from '../api/remove-passkey.ts';
import { useRenamePasskey } from '../api/rename-passkey.ts';
import { useSetUpAuthenticator } from '../api/set-up-authenticator.ts';
import local from './sign-in-factors.module.css';

/** The server's word on a field it refused (a wrong code or password), else null. */
function fieldMessage(error: unknown, path: string): string | null {
  if (!(error instanceof ApiError)) return null;
  return normalizeError(error).details?.find((d) => d.path === path)?.message ?? null;
}
/** The failure to show above a form: not the one already shown at its field. */
function formMessage(error: unknown, path: string): string | null {
  if (!error || fieldMessage(error, path)) return null;
  return normalizeError(error).message;
}

/** The ten codes, shown once: to print, copy or download, and a Done that says they are kept. */
function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `HCP Portal recovery codes\nEach works once, instead of a code from your authenticator app.\n\n${codes.join('\n')}\n`;
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <section className={styles.card} aria-labelledby="recovery-codes-heading">
      <h3 id="recovery-codes-heading" tabIndex={-1} data-focus-key="recovery-codes">
        Save your recovery codes
      </h3>
      <p>
        If your phone is lost, each of these codes signs you in once instead of the app. They are shown only now: keep them
        somewhere safe, away from your phone.
      </p>
      <ol className={local.codes} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={local.row}>
        <button
          type="button"
          className={controls.secondary}
          onClick={() =>
            navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy the codes
        </button>
        <a className={controls.secondary} href={download} download="hcp-portal-recovery-codes.txt">
          Download as a text file
        </a>
      </div>
      <p role="status">{copied ? 'Copied.' : null}</p>
      <button type="button" className={styles.submit} onClick={onDone}>
        I have saved them
      </button>
    </section>
  );
}

const codeForm = confirmAuthenticatorSchema;
type CodeForm = z.input<typeof codeForm>;

/** Step by step: scan (or type the key), then a code from the app proves it works. */
function SetUpAuthenticator({
  userId,
  setup,
  onCancel,
  onAdded,
}: {
  userId: string;
  setup: AuthenticatorSetup;
  onCancel: () => void;
  onAdded: (codes: string[]) => void;
}) {
  const confirm = useConfirmAuthenticator(userId);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<CodeForm, unknown, z.output<typeof codeForm>>({ resolver: zodResolver(codeForm), defaultValues: { code: '' } });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    focusWhenReady(() => heading.current);
  }, []);
  const onSubmit = handleSubmit((body) =>
    confirm.mutate(body, {
      onSuccess: ({ recoveryCodes }) => onAdded(recoveryCodes),
      onError: () => setFocus('code'),
    }),
  );
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`;
  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate aria-labelledby="authenticator-setup-heading">
      <h3 id="authenticator-setup-heading" ref={heading} tabIndex={-1}>
        Set up an authenticator app
      </h3>
      <ol className={local.steps}>
        <li>
          In your authenticator app (for example Microsoft Authenticator, Google Authenticator or 1Password), add an account and
          scan this code:
          <img
            className={local.qr}
            src={qr}
            alt="QR code of your HCP Portal key, for your authenticator app"
            width={184}
            height={184}
          />
        </li>
        <li>
          Cannot scan? Type this key instead: <code className={local.secret}>{setup.secret}</code>
        </li>
        <li>Enter the 6-digit code the app now shows.</li>
      </ol>
      <FormAlert message={formMessage(confirm.error, 'body.code')} />
      <TextField
        label="Code from your authenticator app"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code?.message ?? fieldMessage(confirm.error, 'body.code') ?? undefined}
        {...register('code')}
      />
      <div className={local.row}>
        <button type="submit" className={styles.submit} disabled={confirm.isPending}>
          {confirm.isPending ? 'Checking…' : 'Turn on'}
        </button>
        <button type="button" className={controls.secondary} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A passkey's name, changed in place: Enter saves, Escape or Cancel leaves it as it was. */
function RenamePasskey({
  userId,
  passkey,
  onDone,
}: {
  userId: string;
  passkey: Passkey;
  onDone: (renamed: string | null) => void;
}) {
  const rename = useRenamePasskey(userId);
  const [name, setName] = useState(passkey.name);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.select();
  }, []);
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    rename.mutate({ passkeyId: passkey.id, name: parsed.data }, { onSuccess: () => onDone(parsed.data) });
  };
  return (
    <form
      className={local.addKey}
      onSubmit={save}
      noValidate
      aria-label={`Rename the passkey ${passkey.name}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone(null);
      }}
    >
      <FormAlert message={rename.error ? normalizeError(rename.error).message : null} />
      <TextField
        ref={field}
        label="New name"
        autoComplete="off"
        maxLength={PASSKEY_NAME_MAX}
        value={name}
        error={problem ?? undefined}
        onChange={(event) => setName(event.target.value)}
      />
      <span className={local.row}>
        <button type="submit" className={styles.submit} disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save name'}
        </button>
        <button type="button" className={controls.secondary} onClick={() => onDone(null)}>
          Cancel
        </button>
      </span>
    </form>
  );
}

/** The account's passkeys and security keys, each removable, and a named new one made by the browser's ceremony. */
function Passkeys({
  userId,
  passkeys,
  onAdded,
  onRemove,
}: {
  userId: string;
  passkeys: Passkey[];
  /** Said after a passkey was added or renamed, with its name. */
  onAdded: (name: string, how?: 'added' | 'renamed') => void;
  onRemove: (passkey: Passkey) => void;
}) {
  const add = useAddPasskey(userId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const supported = passkeysSupported();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    setProblem(null);
    add.mutate(parsed.data, {
      onSuccess: () => {
        setName('');
        onAdded(parsed.data);
        focusWhenReady(() => document.querySelector<HTMLElement>(`#passkeys [data-passkey-name="${CSS.escape(parsed.data)}"]`));
      },
    });
  };
  const failure = add.error
    ? add.error instanceof ApiError
      ? normalizeError(add.error).message
      : passkeyFailure(add.error)
    : null;
  return (
    <div className={styles.card}>
      <h4 id="passkeys-heading">Passkeys and security keys</h4>
      <p>
        A passkey (on your phone, laptop or password manager) or a security key signs you in with your fingerprint, face or PIN:
        nothing to type, and it does not work on a false sign-in page.
      </p>
      {passkeys.length === 0 ? (
        <p>No passkey yet.</p>
      ) : (
        <ul id="passkeys" className={local.keys} aria-labelledby="passkeys-heading">
          {passkeys.map((p) => (
            <li key={p.id}>
              {renaming === p.id ? (
                <RenamePasskey
                  userId={userId}
                  passkey={p}
                  onDone={(renamed) => {
                    setRenaming(null);
                    if (renamed) onAdded(renamed, 'renamed');
                    focusWhenReady(() => document.getElementById(`rename-${p.id}`));
                  }}
                />
              ) : (
                <>
                  <span>
                    <strong>{p.name}</strong> — added {formatDateTime(p.addedAt)},{' '}
                    {p.lastUsedAt ? `last used ${formatDateTime(p.lastUsedAt)}` : 'not used yet'}
                    {p.backedUp ? ', synced between your devices' : ''}
                  </span>
                  <span className={local.row}>
                    <button id={`rename-${p.id}`} type="button" className={controls.secondary} onClick={() => setRenaming(p.id)}>
                      Rename<span className="visually-hidden"> the passkey {p.name}</span>
                    </button>
                    <button
                      id={`passkey-${p.id}`}
                      type="button"
                      className={controls.secondary}
                      data-passkey-name={p.name}
                      onClick={() => onRemove(p)}
                    >
                      Remove<span className="visually-hidden"> the passkey {p.name}</span>
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form id="add-passkey" onSubmit={submit} noValidate aria-label="Add a passkey" className={local.addKey}>
          <FormAlert message={failure} />
          <TextField
            label="Name for the new passkey"
            placeholder="for example Work laptop"
            autoComplete="off"
            maxLength={PASSKEY_NAME_MAX}
            value={name}
            error={problem ?? undefined}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className={styles.submit} disabled={add.isPending}>
            {add.isPending ? 'Waiting for your passkey…' : 'Add a passkey'}
          </button>
        </form>
      ) : (
        <p>{PASSKEY_MESSAGES.unsupported}</p>
      )}
    </div>
  );
}

type PasswordForm = z.infer<typeof reauthenticateSchema>;

/** A change that weakens sign-in or replaces its codes: the current password first. */
function WithPassword({
  title,
  explain,
  submit,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  title: string;
  explain: string;
  submit: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: PasswordForm) => void;
  onCancel: () => void;
}) {
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<PasswordForm>({ resolver: zodResolver(reauthenticateSchema), defaultValues: { currentPassword: '' } });
  useEffect(() => setFocus('currentPassword'), [setFocus]);
  const id = title.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <form className={styles.card} onSubmit={handleSubmit(onSubmit)} noValidate aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <p>{explain}</p>
      <FormAlert message={formMessage(error, 'body.currentPassword')} />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message ?? fieldMessage(error, 'body.currentPassword') ?? undefined}
        {...register('currentPassword')}
      />
      <div className={local.row}>
        <button type="submit" className={styles.submit} disabled={pending}>
          {pending ? 'Working…' : submit}
        </button>
        <button type="button" className={controls.secondary} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Step =
  | { kind: 'status' }
  | { kind: 'setup'; setup: AuthenticatorSetup }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'remove' }
  | { kind: 'renew' }
  | { kind: 'removePasskey'; passkey: Passkey };

/**
 * Issue 48: an authenticator app as the second step of signing in, and recovery codes for a lost phone. What the
 * account has now, and each change in place; focus follows each step (the one focus rule).
 */
export function SignInFactorsSection({ userId }: { userId: string }) {
  const factors = useSignInFactors(userId);
  const start = useSetUpAuthenticator(userId);
  const remove = useRemoveAuthenticator(userId);
  const renew = useNewRecoveryCodes(userId);
  const removeKey = useRemovePasskey(userId);
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [said, setSaid] = useState<string | null>(null);
  const back = (message: string | null, focusOn = 'authenticator-status') => {
    setSaid(message);
    setStep({ kind: 'status' });
    focusWhenReady(() => document.getElementById(focusOn) ?? document.querySelector<HTMLElement>(focusOn));
  };
  const app = factors.data?.authenticatorApp ?? null;

  let body: React.ReactNode;
  if (step.kind === 'setup') {
    body = (
      <SetUpAuthenticator
        userId={userId}
        setup={step.setup}
        onCancel={() => back(null, 'set-up-authenticator')}
        onAdded={(codes) => {
          setSaid(SIGN_IN_FACTOR_MESSAGES.added);
          setStep({ kind: 'codes', codes });
          focusWhenReady(() => document.getElementById('recovery-codes-heading'));
        }}
      />
    );
  } else if (step.kind === 'codes') {
    body = <RecoveryCodesShown codes={step.codes} onDone={() => back(said)} />;
  } else if (step.kind === 'remove') {
    body = (
      <WithPassword
        title="Remove the authenticator app"
        explain="Sign-in codes will come by e-mail again, and your recovery codes will stop working."
        submit="Remove the app"
        pending={remove.isPending}
        error={remove.error}
        onSubmit={(form) =>
          remove.mutate(form, { onSuccess: () => back(SIGN_IN_FACTOR_MESSAGES.removed, 'set-up-authenticator') })
        }
        onCancel={() => back(null)}
      />
    );
  } else if (step.kind === 'renew') {
    body = (
      <WithPassword
        title="Make new recovery codes"
        explain={`You get ${RECOVERY_CODES.count} new codes; the ones you have now stop working.`}
        submit="Make new codes"
        pending={renew.isPending}
        error={renew.error}
        onSubmit={(form) =>
          renew.mutate(form, {
            onSuccess: ({ recoveryCodes }) => {
              setSaid(SIGN_IN_FACTOR_MESSAGES.newCodes);
              setStep({ kind: 'codes', codes: recoveryCodes });
              focusWhenReady(() => document.getElementById('recovery-codes-heading'));
            },
          })
        }
        onCancel={() => back(null)}
      />
    );
  } else if (step.kind === 'removePasskey') {
    const { passkey } = step;
    body = (
      <WithPassword
        title={`Remove the passkey “${passkey.name}”`}
        explain="It will no longer sign you in. Remove it also from the device or password manager that holds it."
        submit="Remove the passkey"
        pending={removeKey.isPending}
        error={removeKey.error}
        onSubmit={(form) =>
          removeKey.mutate(
            { passkeyId: passkey.id, ...form },
            { onSuccess: () => back(PASSKEY_MESSAGES.removed(passkey.name), '#add-passkey input') },
          )
        }
        onCancel={() => back(null, `passkey-${passkey.id}`)}
      />
    );
  } else if (factors.isPending) {
    body = <p aria-busy="true">Loading…</p>;
  } else if (factors.isError) {
    body = <p role="alert">Could not load your sign-in settings. Please try again.</p>;
  } else if (app) {
    body = (
      <div className={styles.card}>
        <p id="authenticator-status" tabIndex={-1}>
          Authenticator app: <strong>on</strong> since {formatDateTime(app.addedAt)}. Each sign-in asks for a code from it.
          Recovery codes left: <strong>{factors.data.recoveryCodesLeft}</strong> of {RECOVERY_CODES.count}.
        </p>
        <div className={local.row}>
          <button type="button" className={controls.secondary} onClick={() => setStep({ kind: 'renew' })}>
            Make new recovery codes
          </button>
          <button type="button" className={controls.secondary} onClick={() => setStep({ kind: 'remove' })}>
            Remove the authenticator app
          </button>
        </div>
      </div>
    );
  } else {
    body = (
      <div className={styles.card}>
        <p id="authenticator-status" tabIndex={-1}>
          Authenticator app: <strong>off</strong>. An app on your phone gives a new code every 30 seconds: no mailbox to wait for,
          and a code sent to a false sign-in page cannot be used again.
        </p>
        <FormAlert message={start.error ? normalizeError(start.error).message : null} />
        <button
          id="set-up-authenticator"
          type="button"
          className={styles.submit}
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: (setup) => setStep({ kind: 'setup', setup }) })}
        >
          {start.isPending ? 'Starting…' : 'Set up an authenticator app'}
        </button>
      </div>
    );
  }
  return (
    <section aria-labelledby="sign-in-factors-heading">
      <h3 id="sign-in-factors-heading">Two-step sign-in</h3>
      <p role="status">{said}</p>
      {body}
      {step.kind === 'status' && factors.data ? (
        <Passkeys
          userId={userId}
          passkeys={factors.data.passkeys}
          onAdded={(name, how = 'added') =>
            setSaid(how === 'added' ? PASSKEY_MESSAGES.added(name) : PASSKEY_MESSAGES.renamed(name))
          }
          onRemove={(passkey) => setStep({ kind: 'removePasskey', passkey })}
        />
      ) : null}
    </section>
  );
}
