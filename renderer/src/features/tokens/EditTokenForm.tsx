// Edits a token's expiry, quota and model limit in place; the gateway's message shows beside the field it names.
import { useState, type FormEvent } from 'react';
import type { AdminToken } from '../../../../shared/admin-tokens.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, ErrorNote, Field } from '../../components/ui.tsx';
import { localInputOf, parseModelList } from './token-fields.ts';

export function EditTokenForm(props: { token: AdminToken; onDone: () => void }) {
  const t = useT();
  const { tokens } = useStores();
  const { token } = props;
  const [expires, setExpires] = useState(localInputOf(token.expires_at));
  const [quota, setQuota] = useState(token.quota === null ? '' : String(token.quota));
  const [models, setModels] = useState((token.models ?? []).join(', '));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const quotaValue = quota.trim() === '' ? null : Number(quota);
    if (quotaValue !== null && !Number.isFinite(quotaValue)) {
      setError({ message: t('quotaInvalid'), param: 'quota' });
      return;
    }
    setBusy(true);
    const result = await tokens.getState().update(token.token_id, {
      // An unchanged expiry is not sent again: a past one would be refused although the user left it alone.
      ...(expires !== localInputOf(token.expires_at) && { expires_at: expires === '' ? null : new Date(expires).getTime() }),
      quota: quotaValue,
      models: parseModelList(models),
    });
    setBusy(false);
    if (result.ok) props.onDone();
    else setError(result);
  };
  const errorFor = (field: string) => (error?.param === field ? error.message : null);
  return (
    <form className="token-edit" onSubmit={(event) => void submit(event)} aria-label={t('editTokenNamed', { name: token.name })}>
      <Field label={t('expiresOptional')} error={errorFor('expires_at')} hint={t('expiresEditHint')}>
        <input type="datetime-local" value={expires} onChange={(event) => setExpires(event.target.value)} />
      </Field>
      <Field label={t('quotaOptional')} error={errorFor('quota')} hint={t('quotaHint')}>
        <input value={quota} onChange={(event) => setQuota(event.target.value)} inputMode="decimal" placeholder={t('unlimited')} />
      </Field>
      <Field label={t('modelsOptional')} error={errorFor('models')} hint={t('modelsHint')}>
        <input value={models} onChange={(event) => setModels(event.target.value)} placeholder={t('anyModel')} />
      </Field>
      <ErrorNote message={error && !['expires_at', 'quota', 'models'].includes(error.param ?? '') ? error.message : null} />
      <div className="row">
        <Button type="submit" kind="primary" busy={busy}>
          {t('save')}
        </Button>
        <Button onClick={props.onDone}>{t('cancel')}</Button>
      </div>
    </form>
  );
}
