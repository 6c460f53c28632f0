import { normalizeError } from '@hcp/contract';
import { FormAlert } from '../../../components/form-alert.tsx';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { Page } from '../../../components/page.tsx';
import { AppealSignIn } from '../components/appeal-sign-in.tsx';
import { AppealWorkspace } from '../components/appeal-workspace.tsx';
import { useAppealEntry } from '../hooks/use-appeal-entry.ts';

/** /appeals-form (spec §2): the HCP appeal — NPI + key (or the portal session), then the form. */
export default function AppealsFormRoute() {
  const entry = useAppealEntry();
  return (
    <Page title="HCP Appeal">
      {entry.session ? (
        <AppealWorkspace
          appealId={entry.session.appealId}
          clinicalNotesRequired={false}
          prepareOnly={entry.session.prepareOnly === true}
          onStartAgain={entry.startAgain}
        />
      ) : entry.portal?.isPending ? (
        <FullPageLoader label="Opening the appeal…" />
      ) : (
        <>
          {entry.portal?.isError ? (
            <FormAlert
              message={`${normalizeError(entry.portal.error).message} Only the prescriber of this prescription can open its appeal from the portal; others use the pharmacy’s link.`}
            />
          ) : null}
          <AppealSignIn defaults={entry.defaults} onOpened={entry.opened} />
        </>
      )}
    </Page>
  );
}
