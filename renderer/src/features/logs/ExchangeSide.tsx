// One side of a recorded call (request or response): its headers, query and body as recorded, with what was not kept said plainly.
import { JOURNAL_BODY_LIMIT, type JournalBody } from '../../../../shared/journal.ts';
import { useT } from '../../i18n/index.ts';
import { CopyButton, Fact } from '../../components/ui.tsx';
import { formatBytes } from './journal-view.ts';

function NameValues(props: { label: string; values: Record<string, string> }) {
  const entries = Object.entries(props.values);
  if (entries.length === 0) return null;
  return (
    <>
      <h4>{props.label}</h4>
      <dl className="facts headers">
        {entries.map(([name, value]) => (
          <Fact key={name} label={<code>{name}</code>}>
            <span className="mono">{value}</span>
          </Fact>
        ))}
      </dl>
    </>
  );
}

export function ExchangeSide(props: {
  id: string;
  tabId: string;
  headers: Record<string, string>;
  query?: Record<string, string>;
  body: JournalBody;
  testId: string;
}) {
  const t = useT();
  const { body } = props;
  return (
    <div className="exchange-side" data-testid={props.testId} id={props.id} role="tabpanel" aria-labelledby={props.tabId}>
      {props.query && <NameValues label={t('logQuery')} values={props.query} />}
      <NameValues label={t('logHeaders')} values={props.headers} />
      <h4>
        {t('logBody')}{' '}
        <span className="muted small">{body.bytes > 0 ? `${body.contentType ?? '—'} · ${formatBytes(body.bytes)}` : t('logNoBody')}</span>
      </h4>
      {body.text !== null && body.text !== '' && (
        <>
          <pre className="code body-text">{body.text}</pre>
          <div className="row">
            <CopyButton text={body.text} />
            {body.truncated && <span className="muted small">{t('logTruncated', { kept: formatBytes(JOURNAL_BODY_LIMIT) })}</span>}
          </div>
        </>
      )}
      {body.text === null && body.bytes > 0 && <p className="muted">{t('logBinaryBody')}</p>}
    </div>
  );
}
