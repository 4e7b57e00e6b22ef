// Registers an asset (URL, type, optional name, group); the gateway's validation messages show beside the field at fault.
import { useState, type FormEvent } from 'react';
import { ASSET_TYPES, type AssetType } from '../../../../shared/portrait.ts';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, EmptyState, ErrorNote, Field, Panel } from '../../components/ui.tsx';

/** Fields the form shows errors beside; any other error shows under the form. */
const FORM_FIELDS = ['url', 'asset_type', 'group_id', 'name'];

export function RegisterForm() {
  const t = useT();
  const { assets } = useStores();
  const groups = assets((state) => state.groups);
  const filterGroup = assets((state) => state.filter.groupId);
  const [url, setUrl] = useState('');
  const [assetType, setAssetType] = useState<AssetType>('Image');
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const chosenGroup = groupId || filterGroup || groups?.items[0]?.group_id || '';

  if (groups && groups.total === 0) {
    return (
      <Panel title={t('registerAsset')}>
        <EmptyState title={t('needGroupTitle')}>{t('needGroupBody')}</EmptyState>
      </Panel>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await assets.getState().register({ group_id: chosenGroup, url: url.trim(), asset_type: assetType, name });
    setBusy(false);
    if (result.ok) {
      setUrl('');
      setName('');
      setError(null);
    } else setError(result);
  };
  const errorFor = (field: string) => (error?.param === field ? error.message : null);

  return (
    <Panel title={t('registerAsset')}>
      <form className="register-form" onSubmit={(event) => void submit(event)} aria-label={t('registerAsset')} noValidate>
        <Field label={t('assetUrl')} error={errorFor('url')} hint={t('assetUrlHint')}>
          <input
            value={url}
            maxLength={FIELD_LIMITS.url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder={t('example', { value: 'https://cdn.example.com/anna.png' })}
            inputMode="url"
          />
        </Field>
        <Field label={t('assetType')} error={errorFor('asset_type')}>
          <select value={assetType} onChange={(event) => setAssetType(event.target.value as AssetType)}>
            {ASSET_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('assetNameOptional')} error={errorFor('name')}>
          <input value={name} maxLength={FIELD_LIMITS.assetName} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('group')} error={errorFor('group_id')}>
          <select value={chosenGroup} onChange={(event) => setGroupId(event.target.value)}>
            {groups?.items.map((group) => (
              <option key={group.group_id} value={group.group_id}>
                {group.name}
              </option>
            ))}
          </select>
        </Field>
        <ErrorNote message={error && !FORM_FIELDS.includes(error.param ?? '') ? error.message : null} />
        <Button type="submit" kind="primary" busy={busy}>
          {busy ? t('registering') : t('register')}
        </Button>
      </form>
    </Panel>
  );
}
