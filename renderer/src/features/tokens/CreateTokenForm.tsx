// Creates a token (account, name, optional expiry, quota and model limit) and shows its secret once, with where it is kept.
import { useState, type FormEvent } from 'react';
import { FIELD_LIMITS } from '../../../../shared/field-limits.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, CopyButton, ErrorNote, Field, Panel } from '../../components/ui.tsx';
import { parseModelList } from './token-fields.ts';

function CreatedSecret() {
  const t = useT();
  const serverText = useServerText();
  const { tokens, status } = useStores();
  const created = tokens((state) => state.created);
  const secrets = status((state) => state.status?.secrets);
  if (!created) return null;
  return (
    <div className="secret-once" role="status" data-testid="created-secret">
      <strong>{t('secretOnceTitle')}</strong>
      <div className="row">
        <code className="secret">{created.secret}</code>
        <CopyButton text={created.secret} />
      </div>
      <p className="muted">
        {created.token.revealable ? t('secretKept', { where: serverText(secrets?.description ?? '') }) : t('secretNotKept')}
      </p>
      <Button onClick={() => tokens.getState().dismissCreated()}>{t('secretSaved')}</Button>
    </div>
  );
}

export function CreateTokenForm() {
  const t = useT();
  const { tokens, status } = useStores();
  const currentAccount = status((state) => state.account);
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [quota, setQuota] = useState('');
  const [models, setModels] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; param: string | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const quotaValue = quota.trim() === '' ? undefined : Number(quota);
    if (quotaValue !== undefined && !Number.isFinite(quotaValue)) {
      setError({ message: t('quotaInvalid'), param: 'quota' });
      return;
    }
    const modelList = parseModelList(models);
    setBusy(true);
    const result = await tokens.getState().create({
      account: account.trim() || currentAccount,
      ...(name.trim() && { name: name.trim() }),
      ...(expires && { expires_at: new Date(expires).getTime() }),
      ...(quotaValue !== undefined && { quota: quotaValue }),
      ...(modelList !== null && { models: modelList }),
    });
    setBusy(false);
    if (result.ok) {
      setName('');
      setExpires('');
      setQuota('');
      setModels('');
      setError(null);
      void status.getState().load();
    } else setError(result);
  };
  const errorFor = (field: string) => (error?.param === field ? error.message : null);
  return (
    <Panel title={t('createToken')}>
      <form className="token-form" onSubmit={(event) => void submit(event)} aria-label={t('createToken')}>
        <Field label={t('account')} error={errorFor('account')} hint={t('accountHint')}>
          <input
            value={account}
            maxLength={FIELD_LIMITS.accountName}
            onChange={(event) => setAccount(event.target.value)}
            placeholder={t('example', { value: currentAccount })}
          />
        </Field>
        <Field label={t('tokenName')} error={errorFor('name')}>
          <input
            value={name}
            maxLength={FIELD_LIMITS.tokenName}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('example', { value: 'ci' })}
          />
        </Field>
        <Field label={t('expiresOptional')} error={errorFor('expires_at')}>
          <input type="datetime-local" value={expires} onChange={(event) => setExpires(event.target.value)} />
        </Field>
        <Field label={t('quotaOptional')} error={errorFor('quota')} hint={t('quotaHint')}>
          <input
            value={quota}
            onChange={(event) => setQuota(event.target.value)}
            inputMode="decimal"
            placeholder={t('example', { value: '5.00' })}
          />
        </Field>
        <Field label={t('modelsOptional')} error={errorFor('models')} hint={t('modelsHint')}>
          <input value={models} onChange={(event) => setModels(event.target.value)} placeholder={t('anyModel')} />
        </Field>
        <ErrorNote
          message={error && !['account', 'name', 'expires_at', 'quota', 'models'].includes(error.param ?? '') ? error.message : null}
        />
        <Button type="submit" kind="primary" busy={busy}>
          {t('createToken')}
        </Button>
      </form>
      <CreatedSecret />
    </Panel>
  );
}
