import { ROUTES } from '@hcp/contract';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { AppealWorkspace } from '../components/appeal-workspace.tsx';
import { useAppealEntry } from '../hooks/use-appeal-entry.ts';

/** /getcovered-form (spec §2, §3): the variant where the clinical notes are checked by default and required. */
export default function GetCoveredFormRoute() {
  const entry = useAppealEntry();
  const navigate = useNavigate();
  const { search } = useLocation();
  if (!entry.session) return <Navigate to={`${ROUTES.getCovered}${search}`} replace />;
  return (
    <Page title="Get Covered Form">
      <AppealWorkspace
        appealId={entry.session.appealId}
        clinicalNotesRequired
        prepareOnly={entry.session.prepareOnly === true}
        onStartAgain={() => {
          entry.startAgain();
          navigate(`${ROUTES.getCovered}${search}`, { replace: true });
        }}
      />
    </Page>
  );
}
