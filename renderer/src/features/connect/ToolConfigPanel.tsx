// "Write the config": the change Connect would make to a coding tool's own files, shown as a diff, applied with one click and undone from its backup.
import { useEffect, useState } from 'react';
import type { ConnectTool, ToolConfigPlan } from '../../../../shared/tool-config.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, ErrorNote, Field, Panel } from '../../components/ui.tsx';
import { messageOf } from '../../stores/storage.ts';

/** One file's change, line by line. */
function FileDiff({ file }: { file: ToolConfigPlan['files'][number] }) {
  const t = useT();
  return (
    <div className="tool-file" data-testid="tool-file">
      <p>
        <code>{file.path}</code>{' '}
        <span className="muted">
          {!file.changed ? t('toolConfigUnchanged') : file.existed ? t('toolConfigChanged') : t('toolConfigNewFile')}
        </span>
      </p>
      <pre className="code diff" aria-label={file.path}>
        {file.diff.map((line, index) => (
          <span key={index} className={line.op === '+' ? 'diff-add' : line.op === '-' ? 'diff-del' : 'diff-same'}>
            {`${line.op} ${line.text}\n`}
          </span>
        ))}
      </pre>
    </div>
  );
}

export function ToolConfigPanel({ tool }: { tool: ConnectTool }) {
  const t = useT();
  const { call, status } = useStores();
  const account = status((state) => state.account);
  const [plan, setPlan] = useState<ToolConfigPlan | null>(null);
  const [model, setModel] = useState('');
  // Gemini CLI only: the project folder to mark trusted (headless `gemini -p` refuses an untrusted one).
  const [trustFolder, setTrustFolder] = useState('');
  const trusts = tool === 'gemini-cli';
  const trustChoice = () => (trusts && trustFolder.trim() !== '' ? { trustFolder: trustFolder.trim() } : {});
  const [busy, setBusy] = useState<'plan' | 'apply' | 'undo' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = async (kind: 'plan' | 'apply' | 'undo' | 'import', work: () => Promise<void>) => {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  };
  const load = (chosen: string) =>
    run('plan', async () => {
      const next = await call('planToolConfig', {
        params: { tool },
        query: { ...(chosen.trim() === '' ? {} : { model: chosen.trim() }), ...trustChoice() },
      });
      setPlan(next);
      setModel(next.model);
    });

  // A new tool starts from its suggested model and shows its change at once.
  useEffect(() => {
    setPlan(null);
    setDone(null);
    setModel('');
    setTrustFolder('');
    void load('');
  }, [tool]);

  const apply = () =>
    run('apply', async () => {
      const applied = await call('applyToolConfig', { params: { tool }, body: { model: model.trim(), account, ...trustChoice() } });
      setPlan(applied);
      setDone(t('toolConfigApplied', { token: applied.tokenName }));
    });
  const undo = () =>
    run('undo', async () => {
      const { restored } = await call('undoToolConfig', { params: { tool } });
      setDone(t('toolConfigRestored', { files: restored.join(', ') }));
      const next = await call('planToolConfig', { params: { tool }, query: { model: model.trim(), ...trustChoice() } });
      setPlan(next);
    });

  const importUpstream = () =>
    run('import', async () => {
      const channel = await call('importToolConfig', { params: { tool }, body: {} });
      setDone(t('toolConfigImported', { name: channel.name }));
    });

  const changes = plan?.files.some((file) => file.changed) ?? false;
  return (
    <Panel title={t('toolConfigTitle')} className="tool-config">
      <p className="muted">{t('toolConfigHelp')}</p>
      <div className="row wrap">
        <Field label={t('toolConfigModel')} hint={t('toolConfigModelHint')}>
          <input value={model} onChange={(event) => setModel(event.target.value)} aria-label={t('toolConfigModel')} />
        </Field>
        {trusts && (
          <Field label={t('toolConfigTrustFolder')} hint={t('toolConfigTrustFolderHint')}>
            <input
              value={trustFolder}
              onChange={(event) => setTrustFolder(event.target.value)}
              aria-label={t('toolConfigTrustFolder')}
              placeholder="/home/me/project"
            />
          </Field>
        )}
        <Button busy={busy === 'plan'} onClick={() => void load(model)}>
          {t('toolConfigShow')}
        </Button>
        <Button kind="primary" busy={busy === 'apply'} disabled={plan === null || !changes} onClick={() => void apply()}>
          {t('toolConfigApply')}
        </Button>
        <Button busy={busy === 'undo'} disabled={!plan?.backup} onClick={() => void undo()}>
          {t('toolConfigUndo')}
        </Button>
      </div>
      <ErrorNote message={error} />
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      {plan?.importable && (
        <div className="row wrap" data-testid="tool-import">
          <span className="muted">{t('toolConfigImportable', { url: plan.importable.baseUrl, hint: plan.importable.keyHint })}</span>
          <Button busy={busy === 'import'} onClick={() => void importUpstream()}>
            {t('toolConfigImport')}
          </Button>
        </div>
      )}
      {plan?.files.map((file) => (
        <FileDiff key={file.path} file={file} />
      ))}
    </Panel>
  );
}
