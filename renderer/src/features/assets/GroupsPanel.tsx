// Groups of the account: paged list, create, rename/describe in place, and delete with their assets after a confirmation.
import { useState, type FormEvent } from 'react';
import type { Group } from '../../../../shared/portrait.ts';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Field, Pager, Panel, Progress } from '../../components/ui.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';

function GroupEditor(props: { group: Group; onDone: () => void }) {
  const t = useT();
  const { assets } = useStores();
  const [name, setName] = useState(props.group.name);
  const [description, setDescription] = useState(props.group.description);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await assets.getState().updateGroup(props.group.group_id, { name, description });
    setBusy(false);
    if (result.ok) props.onDone();
    else setError(result);
  };
  return (
    <form className="group-editor" onSubmit={(event) => void save(event)}>
      <Field label={t('groupName')} error={error?.param === 'name' ? error.message : null}>
        <input value={name} maxLength={FIELD_LIMITS.groupName} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label={t('description')}>
        <input value={description} maxLength={FIELD_LIMITS.groupDescription} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <ErrorNote message={error && error.param !== 'name' ? error.message : null} />
      <div className="row">
        <Button type="submit" kind="primary" busy={busy}>
          {t('save')}
        </Button>
        <Button onClick={props.onDone}>{t('cancel')}</Button>
      </div>
    </form>
  );
}

function CreateGroup() {
  const t = useT();
  const { assets } = useStores();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await assets.getState().createGroup({ name, description });
    setBusy(false);
    if (result.ok) {
      setName('');
      setDescription('');
      setError(null);
    } else setError(result);
  };
  return (
    <form className="create-group" onSubmit={(event) => void submit(event)} aria-label={t('createGroup')}>
      <Field label={t('groupName')} error={error?.param === 'name' ? error.message : null}>
        <input
          value={name}
          maxLength={FIELD_LIMITS.groupName}
          onChange={(event) => setName(event.target.value)}
          placeholder={t('groupNamePlaceholder')}
        />
      </Field>
      <Field label={t('description')}>
        <input value={description} maxLength={FIELD_LIMITS.groupDescription} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <ErrorNote message={error && error.param !== 'name' ? error.message : null} />
      <Button type="submit" kind="primary" busy={busy}>
        {t('createGroup')}
      </Button>
    </form>
  );
}

/** The confirmation of deleting a group with its assets, and the deletion. */
function DeleteGroup(props: { group: Group; onDone: () => void }) {
  const t = useT();
  const { assets } = useStores();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    const refusal = await assets.getState().deleteGroup(props.group.group_id);
    setBusy(false);
    if (refusal) setError(refusal);
    else props.onDone();
  };
  return (
    <ConfirmDialog
      title={t('deleteGroupTitle', { name: props.group.name })}
      confirmLabel={t('delete')}
      busy={busy}
      error={error}
      onConfirm={() => void remove()}
      onCancel={props.onDone}
    >
      {t('deleteGroupBody')}
    </ConfirmDialog>
  );
}

export function GroupsPanel() {
  const t = useT();
  const { assets } = useStores();
  const groups = assets((state) => state.groups);
  const loading = assets((state) => state.groupsLoading);
  const error = assets((state) => state.groupsError);
  const filterGroup = assets((state) => state.filter.groupId);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  return (
    <Panel title={t('groups')} className="groups-panel">
      <CreateGroup />
      <ErrorNote message={error} onRetry={() => void assets.getState().loadGroups()} />
      {loading && !groups && <Progress label={t('loading')} />}
      {groups && groups.total === 0 && <EmptyState title={t('noGroupsTitle')}>{t('noGroupsBody')}</EmptyState>}
      <ul className="group-list">
        {groups?.items.map((group) => (
          <li key={group.group_id} className={group.group_id === filterGroup ? 'selected' : undefined}>
            {editing === group.group_id ? (
              <GroupEditor group={group} onDone={() => setEditing(null)} />
            ) : (
              <div className="group-row">
                <button
                  className="linkish"
                  onClick={() => void assets.getState().setFilter({ groupId: group.group_id === filterGroup ? '' : group.group_id })}
                  title={t('filterByGroup')}
                >
                  <strong>{group.name}</strong>
                  {group.description && <span className="muted"> · {group.description}</span>}
                </button>
                <Button onClick={() => setEditing(group.group_id)}>{t('edit')}</Button>
                <Button kind="danger" onClick={() => setDeleting(group)} label={t('deleteGroupNamed', { name: group.name })}>
                  {t('delete')}
                </Button>
                <code className="muted small group-id">{group.group_id}</code>
              </div>
            )}
          </li>
        ))}
      </ul>
      {deleting && <DeleteGroup group={deleting} onDone={() => setDeleting(null)} />}
      {groups && (
        <Pager
          page={groups.page}
          pageSize={groups.page_size}
          total={groups.total}
          busy={loading}
          onPage={(page) => void assets.getState().loadGroups(page)}
        />
      )}
    </Panel>
  );
}
