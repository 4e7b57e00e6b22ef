// A destructive action asked again in place: its button, then the confirming button and Cancel where it stood.
import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/index.ts';
import { Button } from './ui.tsx';

/**
 * `children` opens the question; `confirm` (the confirming button's label) runs `onConfirm`, and the question closes once
 * it resolves, unless it resolves `false` (the action failed and says so elsewhere: the user may try again). `question`
 * is a sentence shown before the two buttons; `kind` styles the first button (the confirming one is always `danger`).
 * Give the element a `key` that changes with what it acts on, so a changed target closes an open question.
 */
export function ConfirmButton(props: {
  children: ReactNode;
  confirm: ReactNode;
  onConfirm: () => unknown;
  busy?: boolean;
  kind?: 'plain' | 'danger';
  question?: ReactNode;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <Button kind={props.kind ?? 'danger'} onClick={() => setConfirming(true)}>
        {props.children}
      </Button>
    );
  }
  const confirmAndClose = async () => {
    if ((await props.onConfirm()) !== false) setConfirming(false);
  };
  const buttons = (
    <>
      <Button kind="danger" busy={props.busy} onClick={() => void confirmAndClose()}>
        {props.confirm}
      </Button>
      <Button onClick={() => setConfirming(false)} disabled={props.busy}>
        {t('cancel')}
      </Button>
    </>
  );
  return props.question === undefined ? (
    buttons
  ) : (
    <div className="row wrap">
      <span>{props.question}</span>
      {buttons}
    </div>
  );
}
