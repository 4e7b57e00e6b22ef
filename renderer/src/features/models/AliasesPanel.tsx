// The Models page's alias editor: add, retarget, rename and remove saved model aliases, or see the flag that pins them on this run.
import { useEffect, useState, type FormEvent } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, ErrorNote, Field, Panel } from '../../components/ui.tsx';
import { aliasDraftProblem, savedAliases } from '../../stores/model-aliases.ts';

/** The form that adds an alias, or edits the one named `editing`. */
function AliasForm(props: { targets: string[]; editing: { name: string; target: string } | null; onDone: () => void }) {
  const t = useT();
  const { modelAliases: store } = useStores();
  const saving = store((state) => state.saving);
  const [name, setName] = useState(props.editing?.name ?? '');
  const [target, setTarget] = useState(props.editing?.target ?? props.targets[0] ?? '');
  const problem = name === '' ? null : aliasDraftProblem(name, target);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || problem) return;
    if (await store.getState().put(name, target, props.editing?.name)) {
      setName('');
      props.onDone();
    }
  };
  return (
    <form className="alias-form row" onSubmit={(event) => void submit(event)}>
      <Field label={t('aliasName')} error={problem}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="gpt-4o" maxLength={256} />
      </Field>
      <Field label={t('aliasTarget')}>
        <select value={target} onChange={(event) => setTarget(event.target.value)}>
          {props.targets.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </Field>
      <Button type="submit" kind="primary" busy={saving} disabled={name.trim() === '' || problem !== null}>
        {props.editing ? t('aliasSave') : t('aliasAdd')}
      </Button>
      {props.editing && <Button onClick={props.onDone}>{t('cancel')}</Button>}
    </form>
  );
}

export function AliasesPanel() {
  const t = useT();
  const { modelAliases: store, models: modelsStore } = useStores();
  const view = store((state) => state.view);
  const error = store((state) => state.error);
  const saving = store((state) => state.saving);
  const models = modelsStore((state) => state.models);
  const [editing, setEditing] = useState<string | null>(null);
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  if (!view) return <ErrorNote message={error} onRetry={() => void store.getState().load()} />;
  const targets = (models ?? []).filter((model) => model.aliasOf === null).map((model) => model.id);
  const pinnedBy = view.pinned.modelAliases;
  const saved = savedAliases(view);
  const running = view.effective.modelAliases ?? {};
  const waits = view.restartNeeded.includes('modelAliases');
  return (
    <Panel title={t('aliasesTitle')} className="aliases">
      <p className="muted">{t('aliasesHelp')}</p>
      <ErrorNote message={error} />
      {!view.editable ? (
        <p className="muted">{t('aliasesReadOnly')}</p>
      ) : pinnedBy ? (
        <p className="notice" data-testid="aliases-pinned">
          {t('aliasesPinned', { flag: pinnedBy })}
        </p>
      ) : null}
      {pinnedBy || !view.editable ? (
        <ul className="alias-list">
          {Object.entries(running).map(([name, target]) => (
            <li key={name}>
              <code>{name}</code> → <code>{target}</code>
            </li>
          ))}
        </ul>
      ) : (
        <>
          {Object.keys(saved).length === 0 ? (
            <p className="muted">{t('aliasesNone')}</p>
          ) : (
            <div className="table-scroll">
              <table className="table alias-table">
                <thead>
                  <tr>
                    <th scope="col">{t('aliasName')}</th>
                    <th scope="col">{t('aliasTarget')}</th>
                    <th scope="col" />
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(saved).map(([name, target]) =>
                    editing === name ? (
                      <tr key={name}>
                        <td colSpan={3}>
                          <AliasForm targets={targets} editing={{ name, target }} onDone={() => setEditing(null)} />
                        </td>
                      </tr>
                    ) : (
                      <tr key={name} data-testid="alias-row">
                        <td>
                          <code>{name}</code>
                        </td>
                        <td>
                          <code>{target}</code>
                        </td>
                        <td className="row">
                          <Button onClick={() => setEditing(name)} label={t('aliasEditOf', { name })}>
                            {t('aliasEdit')}
                          </Button>
                          <Button
                            kind="danger"
                            busy={saving}
                            onClick={() => void store.getState().remove(name)}
                            label={t('aliasRemoveOf', { name })}
                          >
                            {t('aliasRemove')}
                          </Button>
                        </td>
                      </tr>
                    ),
                  )}
                </tbody>
              </table>
            </div>
          )}
          {editing === null && <AliasForm targets={targets} editing={null} onDone={() => undefined} />}
          {waits && (
            <p className="notice" role="status">
              {t('aliasesWaitRestart')}
            </p>
          )}
        </>
      )}
    </Panel>
  );
}
