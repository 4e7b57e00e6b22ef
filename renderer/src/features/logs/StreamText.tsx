// The text of a streamed answer as the caller read it, assembled from the recorded events.
import type { JournalEntry } from '../../../../shared/journal.ts';
import { useT } from '../../i18n/index.ts';
import { assembledText } from './stream-text.ts';

export function StreamText(props: { entry: JournalEntry }) {
  const t = useT();
  const assembled = assembledText(props.entry);
  if (!assembled) return null;
  return (
    <section className="stream-text" aria-label={t('logAssembled')}>
      <h4>{t('logAssembled')}</h4>
      {assembled.text === '' ? (
        <p className="muted small">{t('logAssembledNone')}</p>
      ) : (
        <pre className="body" data-testid="assembled-text">
          {assembled.text}
        </pre>
      )}
      {assembled.cut && <p className="muted small">{t('logAssembledCut')}</p>}
    </section>
  );
}
