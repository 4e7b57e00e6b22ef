// A call's answer source as the Logs page shows it: "fixture <name>" linking to the Fixtures page, "replayed from <file>" linking to the Cassettes page, "simulated", "relayed (channel)".
import type { ReactNode } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import type { AnswerSource as Source } from './answer-source.ts';

export function AnswerSource(props: { source: Source }) {
  const t = useT();
  const { fixtures, cassettes, navigation } = useStores();
  const { source } = props;
  if (source.kind === 'fixture')
    return (
      <SourceLink
        go={() => {
          fixtures.getState().setHighlight(source.name);
          navigation.getState().go('fixtures');
        }}
      >
        {t('logSourceFixture', { name: source.name })}
      </SourceLink>
    );
  if (source.kind === 'replay')
    return (
      <SourceLink
        go={() => {
          cassettes.getState().show(source.cassette);
          navigation.getState().go('cassettes');
        }}
      >
        {t('logSourceReplayed', { file: source.cassette })}
      </SourceLink>
    );
  const text =
    source.kind === 'relay'
      ? source.channel !== null
        ? t('logSourceRelayedTo', { channel: source.channel })
        : t('logSourceRelayed')
      : t('logSourceSimulated');
  return (
    <span className="answer-source" data-testid="answer-source">
      {text}
    </span>
  );
}

/** A source shown as a link to the page that holds it (`go` opens it). */
function SourceLink(props: { go: () => void; children: ReactNode }) {
  return (
    <button
      className="linkish answer-source"
      data-testid="answer-source"
      onClick={(event) => {
        // In a row, the row would open the call too: the link only goes to the source's page.
        event.stopPropagation();
        props.go();
      }}
    >
      {props.children}
    </button>
  );
}
