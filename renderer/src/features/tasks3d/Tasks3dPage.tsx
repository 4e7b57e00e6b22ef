// 3D tasks page: every task the gateway keeps (any client's), per account, with a look-up by id; create a generation, watch it, download and preview its files.
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { createTasks3dClient, progressOf, taskFailure, type TaskFile } from '../../api/tasks3d.ts';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import type { AdminTask3d } from '../../../../shared/tasks3d.ts';
import { useStores } from '../../context.ts';
import { taskStatusName } from './status-names.ts';
import { formatMoney } from '../../../../shared/money.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Field, Pager, Panel, Progress } from '../../components/ui.tsx';
import { useAccountChoices } from '../../components/use-account-choices.ts';
import { useApiKey } from '../../components/use-api-key.ts';
import { isDone } from '../../stores/tasks3d.ts';
import { GlbPreview } from './GlbPreview.tsx';

const FORMATS = ['glb', 'obj', 'stl'];
const POLL_MS = 1000;

/** Result files are capability URLs on the gateway: no token needed to fetch them. */
function FileLinks(props: { files: TaskFile[] }) {
  const t = useT();
  const { connection } = useStores();
  const apiBase = connection((state) => state.connection?.apiBase ?? '');
  const client = useMemo(() => createTasks3dClient(apiBase, (...args) => fetch(...args)), [apiBase]);
  const [error, setError] = useState<string | null>(null);
  const glb = props.files.find((file) => file.format.toLowerCase() === 'glb');
  const loadGlb = useCallback(() => client.file(glb?.url ?? ''), [client, glb?.url]);
  // Downloads go through a blob, so the link names the file whatever origin serves it.
  const download = async (file: TaskFile) => {
    try {
      const data = await client.file(file.url);
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

function TaskCard(props: { task: AdminTask3d }) {
  const t = useT();
  const language = useStores().prefs((state) => state.language);
  const { task } = props;
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
      </header>
      <p className="task-prompt" data-testid="task-prompt">
        {task.prompt || (task.image_url ? t('taskFromImage', { url: task.image_url }) : '—')}
      </p>
      <p className="muted small">
        {t('taskMeta', { account: task.account, time: formatTime(language, task.created_at * 1000), format: task.format.toUpperCase() })}
      </p>
      {!isDone(task) && <Progress value={progressOf(task)} label={t('taskProgress', { progress: task.progress })} />}
      {!isDone(task) && <p className="muted small">{t('taskProgress', { progress: task.progress })}</p>}
      {failure && (
        <p className="error-box" role="alert">
          {t('taskFailed', { reason: serverText(failure) })}
        </p>
      )}
      {task.status === 'SUCCESS' && task.files.length > 0 && <FileLinks files={task.files} />}
      {task.status === 'SUCCESS' && <p className="muted small">{t('taskAmount', { amount: formatMoney(Number(task.amount)) })}</p>}
    </article>
  );
}

function NewTaskForm() {
  const t = useT();
  const { tasks3d } = useStores();
  const { key, obtain, busy: keyBusy, error: keyError } = useApiKey();
  const creating = tasks3d((state) => state.creating);
  const createError = tasks3d((state) => state.createError);
  const [model, setModel] = useState('sim-3d');
  const [prompt, setPrompt] = useState('');
  const [format, setFormat] = useState('glb');
  if (!key) {
    return (
      <Panel title={t('newTask')}>
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
      </Panel>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await tasks3d.getState().create(key.secret, { model, prompt, format })) setPrompt('');
  };
  return (
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
  );
}

function LookupTask() {
  const t = useT();
  const { tasks3d } = useStores();
  const found = tasks3d((state) => state.found);
  const error = tasks3d((state) => state.findError);
  const finding = tasks3d((state) => state.finding);
  const [taskId, setTaskId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void tasks3d.getState().find(taskId);
  };
  return (
    <Panel title={t('lookupTask')}>
      <form className="row" onSubmit={submit} aria-label={t('lookupTask')}>
        <Field label={t('taskId')}>
          <input value={taskId} maxLength={200} onChange={(event) => setTaskId(event.target.value)} placeholder="task_…" />
        </Field>
        <Button type="submit" busy={finding} disabled={taskId.trim() === ''}>
          {t('lookUp')}
        </Button>
      </form>
      <ErrorNote message={error} />
      {found && <TaskCard task={found} />}
    </Panel>
  );
}

function TaskList() {
  const t = useT();
  const { tasks3d } = useStores();
  const page = tasks3d((state) => state.page);
  const error = tasks3d((state) => state.error);
  const loading = tasks3d((state) => state.loading);
  const filter = tasks3d((state) => state.filter);
  const accounts = useAccountChoices(filter);
  const pending = page?.items.some((task) => !isDone(task)) ?? false;

  useEffect(() => {
    if (!page) void tasks3d.getState().load(1);
  }, [page, tasks3d]);
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void tasks3d.getState().load(), POLL_MS);
    return () => clearInterval(timer);
  }, [pending, tasks3d]);

  return (
    <Panel
      title={t('tasks')}
      actions={
        <div className="filters">
          <label>
            {t('account')}
            <select
              value={filter}
              onChange={(event) => void tasks3d.getState().setFilter(event.target.value)}
              aria-label={t('filterAccount')}
            >
              <option value="">{t('allAccounts')}</option>
              {accounts.map((account) => (
                <option key={account} value={account}>
                  {account}
                </option>
              ))}
            </select>
          </label>
        </div>
      }
    >
      <ErrorNote message={error} onRetry={() => void tasks3d.getState().load()} />
      {loading && !page && <Progress label={t('loading')} />}
      {page && page.total === 0 && <EmptyState title={t('noTasksTitle')}>{t('noTasksBody')}</EmptyState>}
      {page?.items.map((task) => (
        <TaskCard key={task.task_id} task={task} />
      ))}
      {page && (
        <Pager
          page={page.page}
          pageSize={page.page_size}
          total={page.total}
          busy={loading}
          onPage={(p) => void tasks3d.getState().load(p)}
        />
      )}
    </Panel>
  );
}

export function Tasks3dPage() {
  return (
    <div className="page tasks-page">
      <div className="stack">
        <NewTaskForm />
        <LookupTask />
      </div>
      <TaskList />
    </div>
  );
}
