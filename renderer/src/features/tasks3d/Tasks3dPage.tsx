// 3D tasks page: create a generation, watch its progress, download its files and preview the GLB.
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createTasks3dClient, progressOf, taskFailure, type TaskFile } from '../../api/tasks3d.ts';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { useStores } from '../../context.ts';
import { taskStatusName } from './status-names.ts';
import { formatUsd } from '../../components/money.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Field, Panel, Progress } from '../../components/ui.tsx';
import { useApiKey } from '../../components/use-api-key.ts';
import { isDone, type TrackedTask } from '../../stores/tasks3d.ts';
import { GlbPreview } from './GlbPreview.tsx';

const FORMATS = ['glb', 'obj', 'stl'];
const POLL_MS = 1000;

function FileLinks(props: { files: TaskFile[]; secret: string }) {
  const t = useT();
  const { connection } = useStores();
  const apiBase = connection((state) => state.connection?.apiBase ?? '');
  const client = useMemo(() => createTasks3dClient(apiBase, (...args) => fetch(...args)), [apiBase]);
  const [error, setError] = useState<string | null>(null);
  const glb = props.files.find((file) => file.format.toLowerCase() === 'glb');
  const loadGlb = useCallback(() => client.file(props.secret, glb?.url ?? ''), [client, glb?.url, props.secret]);
  // Downloads go through a blob: the file may sit on the gateway's origin or need the token.
  const download = async (file: TaskFile) => {
    try {
      const data = await client.file(props.secret, file.url);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([data]));
      link.download = file.url.split('/').pop()?.split('?')[0] || `model.${file.format}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason));
    }
  };
  return (
    <div className="files">
      <div className="row">
        {props.files.map((file) => (
          <Button key={file.url} onClick={() => void download(file)}>
            {t('downloadFormat', { format: file.format.toUpperCase() })}
          </Button>
        ))}
      </div>
      <ErrorNote message={error} />
      {glb && <GlbPreview load={loadGlb} />}
    </div>
  );
}

function TaskCard(props: { item: TrackedTask; secret: string }) {
  const t = useT();
  const { tasks3d } = useStores();
  const { task, error } = props.item;
  const failure = taskFailure(task);
  const serverText = useServerText();
  return (
    <article className="task-card" data-task-id={task.task_id} data-status={task.status}>
      <header className="row">
        <strong>{task.model}</strong>
        <span className={`badge task-${task.status.toLowerCase()}`} title={task.status}>
          {taskStatusName(task.status, t)}
        </span>
        <code className="muted small">{task.task_id}</code>
        {isDone(task) && <Button onClick={() => tasks3d.getState().remove(task.task_id)}>{t('removeFromList')}</Button>}
      </header>
      {!isDone(task) && <Progress value={progressOf(task)} label={t('taskProgress', { progress: task.progress })} />}
      {!isDone(task) && <p className="muted small">{t('taskProgress', { progress: task.progress })}</p>}
      {failure && (
        <p className="error-box" role="alert">
          {t('taskFailed', { reason: serverText(failure) })}
        </p>
      )}
      {task.status === 'SUCCESS' && task.files.length > 0 && <FileLinks files={task.files} secret={props.secret} />}
      {task.amount && <p className="muted small">{t('taskAmount', { amount: formatUsd(Number(task.amount), 4) })}</p>}
      <ErrorNote message={error} />
    </article>
  );
}

export function Tasks3dPage() {
  const t = useT();
  const { tasks3d } = useStores();
  const { account, key, obtain, busy: keyBusy, error: keyError } = useApiKey();
  const allTasks = tasks3d((state) => state.tasks);
  const tasks = allTasks.filter((item) => item.account === account);
  const creating = tasks3d((state) => state.creating);
  const createError = tasks3d((state) => state.createError);
  const pending = tasks.some((item) => !isDone(item.task));
  const [model, setModel] = useState('sim-3d');
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState('glb');

  useEffect(() => {
    if (!key || !pending) return;
    const timer = setInterval(() => void tasks3d.getState().poll(account, key.secret), POLL_MS);
    return () => clearInterval(timer);
  }, [key, pending, account, tasks3d]);

  if (!key) {
    return (
      <div className="page">
        <EmptyState
          title={t('tasksNeedToken')}
          action={
            <Button kind="primary" busy={keyBusy} onClick={() => void obtain()}>
              {t('useToken')}
            </Button>
          }
        >
          {t('tasksNeedTokenBody')}
        </EmptyState>
        <ErrorNote message={keyError} />
      </div>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await tasks3d.getState().create(account, key.secret, { model, prompt, format })) setPrompt('');
  };
  return (
    <div className="page tasks-page">
      <Panel title={t('newTask')}>
        <form className="task-form" onSubmit={(event) => void submit(event)} aria-label={t('newTask')}>
          <Field label={t('model')}>
            <input value={model} maxLength={FIELD_LIMITS.model} onChange={(event) => setModel(event.target.value)} />
          </Field>
          <Field label={t('prompt')}>
            <textarea
              rows={2}
              value={prompt}
              maxLength={FIELD_LIMITS.prompt3d}
              onChange={(event) => setPrompt(event.target.value)}
              placeholder={t('promptPlaceholder')}
            />
          </Field>
          <Field label={t('outputFormat')}>
            <select value={format} onChange={(event) => setFormat(event.target.value)}>
              {FORMATS.map((item) => (
                <option key={item}>{item}</option>
              ))}
            </select>
          </Field>
          <ErrorNote message={createError} />
          <Button type="submit" kind="primary" busy={creating} disabled={prompt.trim() === ''}>
            {t('createTask')}
          </Button>
        </form>
      </Panel>
      <Panel title={t('tasks')}>
        {tasks.length === 0 && <EmptyState title={t('noTasksTitle')}>{t('noTasksBody')}</EmptyState>}
        {tasks.map((item) => (
          <TaskCard key={item.task.task_id} item={item} secret={key.secret} />
        ))}
      </Panel>
    </div>
  );
}
