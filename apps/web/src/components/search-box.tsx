import { useId, useRef, useState } from 'react';
import styles from './search-box.module.css';

/**
 * A search form: runs on Enter or the Search button, and × empties the box and searches for everything
 * again (spec §2 Practices list). The caller keeps the submitted text (e.g. in the URL).
 */
export function SearchBox({
  label,
  placeholder,
  value,
  onSearch,
}: {
  label: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(value);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to jsdom and older screen readers; role="search" is understood everywhere
    <form
      role="search"
      aria-label={label}
      className={styles.search}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft.trim());
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <div className={styles.inputWrap}>
        <input
          id={inputId}
          ref={input}
          type="text"
          className={styles.input}
          placeholder={placeholder}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          autoComplete="off"
        />
        {draft ? (
          <button
            type="button"
            className={styles.clear}
            aria-label="Clear search"
            onClick={() => {
              setDraft('');
              onSearch('');
              input.current?.focus();
            }}
          >
            ×
          </button>
        ) : null}
      </div>
      <button type="submit" className={styles.button}>
        Search
      </button>
    </form>
  );
}
