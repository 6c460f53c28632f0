import { Dialog } from '../../../components/dialog.tsx';
import styles from './action-queue.module.css';

/** The keys of a list, each with what it does ("?" opens it). */
export function KeyHelpDialog({
  open,
  keys,
  onClose,
}: {
  open: boolean;
  keys: readonly { keys: string[]; does: string }[];
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={onClose}
      startAtTitle
      actions={
        <button type="button" className={styles.button} onClick={onClose}>
          Close
        </button>
      }
    >
      <dl className={styles.keys}>
        {keys.map(({ keys: names, does }) => (
          <div key={does}>
            <dt>
              {names.map((key, i) => (
                <span key={key}>
                  {i > 0 ? ' or ' : ''}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <p>Keys do nothing while you type in a field.</p>
    </Dialog>
  );
}
