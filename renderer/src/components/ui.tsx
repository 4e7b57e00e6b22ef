// Small shared building blocks of the console: buttons with progress, copy, empty states, errors, badges, fields, pager.
import { useState, type ReactNode } from 'react';
import type { AssetStatus } from '../../../shared/portrait.ts';
import { useStores } from '../context.ts';
import { useT } from '../i18n/index.ts';
import { useServerText } from '../i18n/server-texts.ts';
import { copyText } from './clipboard.ts';

/** A button that shows a spinner and stays disabled while `busy`. */
export function Button(props: {
  onClick?: () => void;
  busy?: boolean;
  disabled?: boolean;
  kind?: 'primary' | 'plain' | 'danger';
  type?: 'button' | 'submit';
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      type={props.type ?? 'button'}
      className={`button ${props.kind ?? 'plain'}`}
      onClick={props.onClick}
      disabled={props.disabled || props.busy}
      aria-busy={props.busy ? 'true' : undefined}
      aria-label={props.label}
    >
      {props.busy && <span className="spinner" aria-hidden="true" />}
      {props.children}
    </button>
  );
}

/** Copies `text` and says so for a moment. */
export function CopyButton(props: { text: string; label?: string }) {
  const t = useT();
  const bridge = useStores().connection((state) => state.bridge);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await copyText(props.text, bridge);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <Button onClick={() => void copy()} label={props.label ?? t('copy')}>
      {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : (props.label ?? t('copy'))}
    </Button>
  );
}

/** What a page shows when it has nothing yet: why, and the next step. */
export function EmptyState(props: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty" role="status">
      <h3>{props.title}</h3>
      <p>{props.children}</p>
      {props.action}
    </div>
  );
}

/** An error with what to do about it, and an optional retry. */
export function ErrorNote(props: { message: string | null; onRetry?: () => void }) {
  const t = useT();
  const serverText = useServerText();
  if (!props.message) return null;
  return (
    <div className="error" role="alert">
      <span>{serverText(props.message)}</span>
      {props.onRetry && <Button onClick={props.onRetry}>{t('retry')}</Button>}
    </div>
  );
}

/** A determinate (value 0–100) or indeterminate progress bar. */
export function Progress(props: { value?: number; label: string }) {
  return (
    <div className="progress" role="progressbar" aria-label={props.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={props.value}>
      <div className={props.value === undefined ? 'bar indeterminate' : 'bar'} style={{ width: `${props.value ?? 40}%` }} />
    </div>
  );
}

/** An asset status as a coloured badge. */
export function StatusBadge(props: { status: AssetStatus | string }) {
  return <span className={`badge status-${props.status.toLowerCase()}`}>{props.status}</span>;
}

/** A labelled form control with its hint or inline error (kept outside the label, so the control's name is just the label). */
export function Field(props: { label: string; error?: string | null | undefined; hint?: string; children: ReactNode }) {
  const serverText = useServerText();
  return (
    <div className={props.error ? 'field invalid' : 'field'}>
      <label>
        <span className="field-label">{props.label}</span>
        {props.children}
      </label>
      {props.hint && !props.error && <span className="field-hint">{props.hint}</span>}
      {props.error && (
        <span className="field-error" role="alert">
          {serverText(props.error)}
        </span>
      )}
    </div>
  );
}

/** Previous/next paging with "page x of y". */
export function Pager(props: { page: number; pageSize: number; total: number; onPage: (page: number) => void; busy?: boolean }) {
  const t = useT();
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  // A single page needs no pager.
  if (props.total <= props.pageSize) return null;
  return (
    <div className="pager">
      <Button disabled={props.page <= 1 || props.busy} onClick={() => props.onPage(props.page - 1)}>
        {t('previous')}
      </Button>
      <span>{t('pageOf', { page: props.page, pages, total: props.total })}</span>
      <Button disabled={props.page >= pages || props.busy} onClick={() => props.onPage(props.page + 1)}>
        {t('next')}
      </Button>
    </div>
  );
}

/**
 * A row of tabs (an ARIA tablist): one button per item, the active one selected. `idsOf` gives, for tabs that switch a
 * panel, each tab's id and the id of the panel it controls.
 */
export function Tabs<T extends string | number>(props: {
  items: readonly T[];
  active: T;
  onSelect: (item: T) => void;
  labelOf: (item: T) => string;
  label?: string;
  wrap?: boolean;
  disabled?: boolean;
  idsOf?: (item: T) => { tab: string; panel: string };
}) {
  return (
    <div className={props.wrap ? 'tabs wrap' : 'tabs'} role="tablist" aria-label={props.label}>
      {props.items.map((item) => (
        <button
          key={item}
          role="tab"
          id={props.idsOf?.(item).tab}
          aria-controls={props.idsOf?.(item).panel}
          aria-selected={item === props.active}
          className={item === props.active ? 'tab active' : 'tab'}
          onClick={() => props.onSelect(item)}
          disabled={props.disabled}
        >
          {props.labelOf(item)}
        </button>
      ))}
    </div>
  );
}

/** One name and value of a `<dl className="facts">` list. */
export function Fact(props: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="fact">
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.children}</dd>
    </div>
  );
}

/** A titled panel. */
export function Panel(props: { title: string; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`panel ${props.className ?? ''}`} aria-label={props.title}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        <div className="panel-actions">{props.actions}</div>
      </header>
      {props.children}
    </section>
  );
}
