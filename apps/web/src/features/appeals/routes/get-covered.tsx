import { ROUTES } from '@hcp/contract';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { AppealSignIn } from '../components/appeal-sign-in.tsx';
import { useAppealEntry } from '../hooks/use-appeal-entry.ts';

/** /getcovered (spec §2): an external provider proves who they are, then goes on to the Get Covered form. */
export default function GetCoveredRoute() {
  const entry = useAppealEntry();
  const navigate = useNavigate();
  const { search } = useLocation();
  if (entry.session) return <Navigate to={`${ROUTES.getCoveredForm}${search}`} replace />;
  return (
    <Page title="Get Covered">
      <AppealSignIn
        defaults={entry.defaults}
        onOpened={(session) => {
          entry.opened(session);
          navigate(`${ROUTES.getCoveredForm}${search}`, { replace: true });
        }}
      />
    </Page>
  );
}
