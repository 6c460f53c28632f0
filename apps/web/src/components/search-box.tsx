import { useId, useRef, useState } from 'react';
import controls from './controls.module.css';
import styles from './search-box.module.css';

/**
 * A search form: runs on Enter or the Search button, and × empties the box and searches for everything
 * again (spec §2 Practices list). The caller keeps the submitted text (e.g. in the URL). With a hint the
 * label is shown above the box; with a minimum length, shorter text (but not an empty box) is refused with a
 * message instead of searching.
 */
export function SearchBox({
  label,
  formLabel = label,
  placeholder,
  hint,
  minLength = 0,
  primary = false,
  value,
  onSearch,
}: {
  label: string;
  /** The name of the search landmark, when it differs from the box's label. */
  formLabel?: string;
  placeholder?: string;
  hint?: string;
  minLength?: number;
  /** The page's main action (a primary button) rather than a filter beside other content. */
  primary?: boolean;
  value: string;
  onSearch: (text: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(value);
  const [tooShort, setTooShort] = useState(false);
  const submit = (text: string) => {
    const trimmed = text.trim();
    if (trimmed.length > 0 && trimmed.length < minLength) {
      setTooShort(true);
      return;
    }
    setTooShort(false);
    onSearch(trimmed);
  };
  const describedBy = [hint ? hintId : null, tooShort ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to jsdom and older screen readers; role="search" is understood everywhere
    <form
      role="search"
      aria-label={formLabel}
      className={`${styles.search} ${hint ? styles.withHint : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit(draft);
      }}
    >
      <div className={hint ? controls.field : styles.plain}>
        <label htmlFor={inputId} className={hint ? undefined : 'visually-hidden'}>
          {label}
        </label>
        {hint ? (
          <p id={hintId} className={styles.hint}>
            {hint}
          </p>
        ) : null}
        <div className={styles.inputWrap}>
          <input
            id={inputId}
            ref={input}
            // A text box with a 'search' Enter key: type="search" would add the browser's own × beside ours.
            type="text"
            enterKeyHint="search"
            className={styles.input}
            placeholder={placeholder}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-describedby={describedBy}
            aria-invalid={tooShort || undefined}
            autoComplete="off"
          />
          {draft ? (
            <button
              type="button"
              className={styles.clear}
              aria-label="Clear search"
              onClick={() => {
                setDraft('');
                submit('');
                input.current?.focus();
              }}
            >
              ×
            </button>
          ) : null}
        </div>
        {tooShort ? (
          <span id={errorId} role="alert">
            Type at least {minLength} characters.
          </span>
        ) : null}
      </div>
      <button type="submit" className={primary ? styles.primaryButton : styles.button}>
        Search
      </button>
    </form>
  );
}
