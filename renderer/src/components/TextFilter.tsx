// A typed filter of a list: follows its store's value, and writes to the store only once typing pauses.
import { useEffect, useRef, useState } from 'react';
import { JOURNAL_FILTER_TEXT_LIMIT } from '../../../shared/journal.ts';

/** Pause after the last keystroke before a typed filter is applied. */
const TYPING_PAUSE_MS = 300;

/** A text filter that follows the store but only writes to it once typing pauses. */
export function TextFilter(props: {
  label: string;
  placeholder: string;
  value: string;
  onApply: (value: string) => void;
  maxLength?: number;
}) {
  const [text, setText] = useState(props.value);
  const { value } = props;
  // The latest callback, so a parent's re-render does not restart the pause.
  const apply = useRef(props.onApply);
  apply.current = props.onApply;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    // The store keeps the filter trimmed: "chat " is already applied as "chat".
    if (text.trim() === value) return;
    const timer = setTimeout(() => apply.current(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <label>
      {props.label}
      <input
        type="search"
        value={text}
        maxLength={props.maxLength ?? JOURNAL_FILTER_TEXT_LIMIT}
        placeholder={props.placeholder}
        aria-label={props.label}
        onChange={(event) => setText(event.target.value)}
      />
    </label>
  );
}
