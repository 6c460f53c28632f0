import type { UserDetails } from '@hcp/contract';
import controls from '../../components/controls.module.css';
import { Dialog } from '../../components/dialog.tsx';
import { webConfig } from '../../lib/config.ts';
import styles from './modals.module.css';

const tel = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/**
 * Contact (spec §2 Modals): the support phones, fax and email; users of a VAM practice see their dedicated
 * account manager first, the support line with 'option 1', and where to send eRx.
 */
export function SupportModal({ open, onClose, user }: { open: boolean; onClose: () => void; user: UserDetails | null }) {
  const { phone, secondPhone, fax, email } = webConfig.support;
  const manager = user?.isVAMPracticeUser ? user.accountManager : null;
  return (
    <Dialog
      open={open}
      title={manager ? 'Your account manager' : 'Contact support'}
      onClose={onClose}
      actions={
        <button type="button" className={controls.primary} onClick={onClose}>
          Close
        </button>
      }
    >
      {manager ? (
        <div className={styles.contact}>
          <p>Your practice has a dedicated account manager:</p>
          <dl className={styles.facts}>
            <dt>Name</dt>
            <dd>{manager.name}</dd>
            {manager.phone ? (
              <>
                <dt>Phone</dt>
                <dd>
                  <a href={tel(manager.phone)}>{manager.phone}</a>
                </dd>
              </>
            ) : null}
            {manager.email ? (
              <>
                <dt>Email</dt>
                <dd>
                  <a href={`mailto:${manager.email}`}>{manager.email}</a>
                </dd>
              </>
            ) : null}
          </dl>
          <p>
            Support: <a href={tel(phone)}>{`Tel: ${phone} option 1`}</a>
            <br />
            Fax: {fax}
          </p>
          <p>Please send eRx prescriptions to our pharmacy in Columbus, OH.</p>
        </div>
      ) : (
        <dl className={styles.facts}>
          <dt>Phone</dt>
          <dd>
            <a href={tel(phone)}>{phone}</a>
          </dd>
          <dt>Toll-free</dt>
          <dd>
            <a href={tel(secondPhone)}>{secondPhone}</a>
          </dd>
          <dt>Fax</dt>
          <dd>{fax}</dd>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </dl>
      )}
    </Dialog>
  );
}
