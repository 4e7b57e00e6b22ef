// A modal question before a destructive action: what will happen, confirm or cancel (Escape cancels; focus starts on Cancel).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/index.ts';
import { Button, ErrorNote } from './ui.tsx';

export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const { onCancel } = props;
  useEffect(() => {
    box.current?.querySelector<HTMLButtonElement>('[data-cancel] button, button[data-cancel]')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCancel();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onCancel]);
  return (
    <div className="dialog-backdrop">
      <div ref={box} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h3 id={titleId}>{props.title}</h3>
        <div className="dialog-body">{props.children}</div>
        <ErrorNote message={props.error ?? null} />
        <div className="row dialog-actions">
          <Button kind="danger" busy={props.busy} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
          <span data-cancel="">
            <Button onClick={props.onCancel}>{t('cancel')}</Button>
          </span>
        </div>
      </div>
    </div>
  );
}
