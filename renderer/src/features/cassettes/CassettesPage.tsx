// Cassettes: the record/replay folder — what was recorded, when, from which channel, protocol and model, and whether this replay run used it.
import { useEffect } from 'react';
import type { CassetteFolder, CassetteListing } from '../../../../shared/cassette-admin.ts';
import { useStores } from '../../context.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Pager, Panel, Progress } from '../../components/ui.tsx';
import { TextFilter } from '../../components/TextFilter.tsx';
import type { CassetteUse } from '../../stores/cassettes.ts';

/** Replayed by the run, recorded during it, or not used. */
function RunUse(props: { cassette: CassetteListing }) {
  const t = useT();
  const { cassette } = props;
  if (cassette.replayed) return <span className="badge cassette-replayed">{t('cassetteReplayed')}</span>;
  if (cassette.recorded_in_run) return <span className="badge">{t('cassetteRecordedInRun')}</span>;
  return <span className="muted">{t('cassetteUnused')}</span>;
}

function CassetteRow(props: { cassette: CassetteListing; highlighted: boolean }) {
  const t = useT();
  const language = useStores().prefs((state) => state.language);
  const { cassette } = props;
  if (cassette.problem !== null)
    return (
      <tr data-cassette={cassette.file} className={props.highlighted ? 'selected' : undefined}>
        <td className="mono wrap-anywhere">{cassette.file}</td>
        <td colSpan={3} className="cassette-damaged" role="alert">
          {t('cassetteDamaged', { problem: cassette.problem })}
        </td>
      </tr>
    );
  return (
    <tr data-cassette={cassette.file} className={props.highlighted ? 'selected' : undefined}>
      <td>
        <div className="mono small wrap-anywhere">{cassette.file}</div>
        <span className="badge">{cassette.kind}</span>
        {cassette.stream && <span className="badge">{t('cassetteStream')}</span>}
      </td>
      <td className="small">
        <div>{formatTime(language, cassette.recorded_at)}</div>
        <div className="muted" data-testid="cassette-origin">
          {cassette.mode === 'relay' ? t('cassetteFromChannel', { channel: cassette.channel ?? '?' }) : t('cassetteFromSimulator')}
        </div>
      </td>
      <td className="small">
        <div className="mono wrap-anywhere">
          {cassette.method} {cassette.path}
        </div>
        <div className="muted">
          {cassette.protocol} · {cassette.model ?? '—'}
          {cassette.status !== null && ` · ${cassette.status}`}
        </div>
      </td>
      <td data-testid="cassette-use">
        <RunUse cassette={cassette} />
      </td>
    </tr>
  );
}

/** The folder, what the gateway does with it, and the run the flags come from. */
function FolderFacts(props: { folder: CassetteFolder }) {
  const t = useT();
  const language = useStores().prefs((state) => state.language);
  const { folder } = props;
  return (
    <p className="muted small" data-testid="cassette-folder">
      {t(folder.mode === 'replay' ? 'cassetteFolderReplay' : 'cassetteFolderRecord', { dir: folder.dir ?? '' })}{' '}
      {folder.run
        ? t('cassetteRun', { time: formatTime(language, folder.run.started_at), count: folder.run.replayed })
        : t('cassetteNoRun')}
      {folder.truncated && ` ${t('cassetteTruncated', { files: folder.files })}`}
    </p>
  );
}

export function CassettesPage() {
  const t = useT();
  const { cassettes } = useStores();
  const folder = cassettes((state) => state.folder);
  const loading = cassettes((state) => state.loading);
  const error = cassettes((state) => state.error);
  const text = cassettes((state) => state.text);
  const use = cassettes((state) => state.use);
  const highlight = cassettes((state) => state.highlight);
  useEffect(() => {
    void cassettes.getState().load();
  }, [cassettes]);
  return (
    <div className="page cassettes-page">
      <Panel title={t('cassettesTitle')} actions={<Button onClick={() => void cassettes.getState().load()}>{t('reload')}</Button>}>
        <p className="muted small">{t('cassettesHelp')}</p>
        <ErrorNote message={error} onRetry={() => void cassettes.getState().load()} />
        {loading && !folder && <Progress label={t('loading')} />}
        {folder && folder.dir === null && <EmptyState title={t('cassettesOffTitle')}>{t('cassettesOffBody')}</EmptyState>}
        {folder && folder.dir !== null && (
          <>
            <FolderFacts folder={folder} />
            <div className="filters">
              <TextFilter
                label={t('cassetteSearch')}
                placeholder={t('cassetteSearchPlaceholder')}
                value={text}
                onApply={(value) => void cassettes.getState().setFilter({ text: value })}
              />
              <label>
                {t('cassetteUse')}
                <select
                  value={use}
                  aria-label={t('cassetteUse')}
                  onChange={(event) => void cassettes.getState().setFilter({ use: event.target.value as CassetteUse })}
                >
                  <option value="">{t('cassetteUseAll')}</option>
                  <option value="replayed">{t('cassetteUseReplayed')}</option>
                  <option value="unused">{t('cassetteUseUnused')}</option>
                </select>
              </label>
            </div>
            {folder.total === 0 ? (
              <EmptyState title={t('cassettesEmptyTitle')}>{t('cassettesEmptyBody')}</EmptyState>
            ) : (
              <div className="table-scroll">
                <table className="table cassette-table" aria-label={t('cassettesTitle')}>
                  <thead>
                    <tr>
                      <th>{t('cassetteFile')}</th>
                      <th>{t('cassetteRecorded')}</th>
                      <th>{t('cassetteRequest')}</th>
                      <th>{t('cassetteThisRun')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {folder.items.map((cassette) => (
                      <CassetteRow key={cassette.file} cassette={cassette} highlighted={cassette.file === highlight} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager
              page={folder.page}
              pageSize={folder.page_size}
              total={folder.total}
              busy={loading}
              onPage={(page) => void cassettes.getState().load(page)}
            />
          </>
        )}
      </Panel>
    </div>
  );
}
