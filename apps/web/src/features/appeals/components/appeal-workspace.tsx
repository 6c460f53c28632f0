import { normalizeError } from '@hcp/contract';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { useAppeal } from '../api/get-appeal.ts';
import { AppealForm } from './appeal-form.tsx';
import { AppealReceipt } from './appeal-receipt.tsx';

/** The opened appeal: loading, the form, or — once submitted — its receipt (also after a reload). */
export function AppealWorkspace({
  appealId,
  clinicalNotesRequired,
  prepareOnly = false,
  onStartAgain,
}: {
  appealId: string;
  /** Opened by the practice's people to prepare it for the prescriber: no attestation, no submit. */
  prepareOnly?: boolean;
  /** The Get Covered variant requires the clinical notes whatever the appeal says. */
  clinicalNotesRequired: boolean;
  onStartAgain: () => void;
}) {
  const appeal = useAppeal(appealId);
  if (appeal.isPending) return <FullPageLoader label="Loading the appeal…" />;
  if (appeal.isError) {
    return (
      <div>
        <FormAlert message={normalizeError(appeal.error).message} />
        <button type="button" className={controls.secondary} onClick={onStartAgain}>
          Open the appeal again
        </button>
      </div>
    );
  }
  if (appeal.data.submittedAt) return <AppealReceipt appeal={appeal.data} />;
  return (
    <AppealForm
      appeal={appeal.data}
      clinicalNotesRequired={clinicalNotesRequired || appeal.data.clinicalNotesRequired}
      prepareOnly={prepareOnly}
    />
  );
}
