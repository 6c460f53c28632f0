import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';

/**
 * For the provider's users outside a support window (decision 0020): why a patient list is empty, and how to
 * help a practice — so an empty list never reads as "there is nothing".
 */
export function PatientDataNotice() {
  return (
    <p role="note">
      Patient details are shown to each practice’s own people. To help a practice, open read-only support access from{' '}
      <Link to={ROUTES.actionNeeded}>Action Needed</Link>.
    </p>
  );
}
