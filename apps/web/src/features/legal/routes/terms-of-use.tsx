import { Page } from '../../../components/page.tsx';
import styles from './terms-of-use.module.css';

export const TERMS_LAST_UPDATED = 'November 23, 2026';

export default function TermsOfUseRoute() {
  return (
    <Page title="Terms of Use">
      <article className={styles.terms}>
        <p className={styles.updated}>Last updated: {TERMS_LAST_UPDATED}</p>
        <p>
          These terms govern your use of the HCP Portal (the “Portal”), a service that lets licensed prescribers and the staff of
          their medical offices review and act on prescriptions sent to our pharmacy. By signing in you agree to these terms on
          your own behalf and on behalf of the practice you work for.
        </p>

        <h2>1. Who may use the Portal</h2>
        <p>
          The Portal is for licensed prescribers (MD, DO, PA, NP, ARNP) and for office staff they authorize. Your account is
          personal: do not share your password or verification codes, and tell us at once if you think someone else has used your
          account. Practices must tell us when a staff member leaves so that we can close their access.
        </p>

        <h2>2. Clinical responsibility</h2>
        <p>
          Every authorization, denial, alternative-medication choice, prior-authorization document and appeal you submit through
          the Portal is your clinical decision and is recorded as sent by you. The Portal shows what the pharmacy knows at the
          time; it does not give medical advice. Check the patient, drug, strength and directions before you confirm an action.
        </p>

        <h2>3. Protected health information</h2>
        <p>
          The Portal contains protected health information under HIPAA. Use it only for the treatment of your patients and the
          operations of your practice, view only what you need, and do not copy patient data out of the Portal except into your
          practice’s own records. We keep a record of every view of and change to patient data, and we review it.
        </p>

        <h2>4. Security</h2>
        <p>
          Sign out on shared computers. We may ask for a second verification step, end inactive sessions and lock an account after
          repeated failed sign-ins to protect patients. Do not try to reach data of practices you do not belong to, test the
          Portal’s security, or automate access to it without our written consent.
        </p>

        <h2>5. Messages to the pharmacy</h2>
        <p>
          Prescriptions sent electronically or by fax through the Portal are transmitted to our pharmacy only. Controlled
          substances cannot be prescribed through the Portal.
        </p>

        <h2>6. Availability and changes</h2>
        <p>
          We work to keep the Portal available but may interrupt it for maintenance or for security. If the Portal is unavailable,
          call the pharmacy for anything urgent. We may change these terms; we will show the date of the latest change on this
          page, and continued use after a change means you accept it.
        </p>

        <h2>7. Contact</h2>
        <p>
          Questions about these terms, your account or a patient’s prescription: use the Contact button in the Portal’s header to
          reach our support team.
        </p>
      </article>
    </Page>
  );
}
