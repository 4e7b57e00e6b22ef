// Tokens page: create (secret once), and a list with expiry, quota, usage, model limit and last use; reveal, edit, revoke, delete revoked.
import { useEffect, useState } from 'react';
import type { AdminToken } from '../../../../shared/admin-tokens.ts';
import { useStores } from '../../context.ts';
import { formatMoney } from '../../../../shared/money.ts';
import { formatTime, useT } from '../../i18n/index.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Panel, Progress } from '../../components/ui.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { CreateTokenForm } from './CreateTokenForm.tsx';
import { EditTokenForm } from './EditTokenForm.tsx';

/** Columns of the token table (the edit row spans them all). */
const COLUMNS = 7;

function stateOf(token: AdminToken, now: number): 'revoked' | 'expired' | 'exhausted' | 'active' {
  if (token.revoked_at !== null) return 'revoked';
  if (token.expires_at !== null && token.expires_at <= now) return 'expired';
  if (token.quota !== null && token.used >= token.quota) return 'exhausted';
  return 'active';
}

function TokenRow(props: { token: AdminToken }) {
  const t = useT();
  const { tokens, prefs } = useStores();
  const { token } = props;
  const language = prefs((state) => state.language);
  const revealed = tokens((state) => state.revealed[token.token_id]);
  const busy = tokens((state) => state.busy.includes(token.token_id));
  const [editing, setEditing] = useState(false);
  const state = stateOf(token, Date.now());
  return (
    <>
      <tr data-token-id={token.token_id}>
        <td>
          <strong>{token.name}</strong>
          <div className="muted small">{token.account}</div>
          <div className="muted small" data-testid="token-models">
            {token.models === null ? t('anyModel') : t('onlyModels', { models: token.models.join(', ') })}
          </div>
        </td>
        <td>
          {revealed ? (
            <span className="row">
              <code className="secret">{revealed}</code>
              <CopyButton text={revealed} />
              <Button onClick={() => tokens.getState().hide(token.token_id)}>{t('hide')}</Button>
            </span>
          ) : (
            <code>{token.hint}</code>
          )}
        </td>
        <td>
          <span className={`badge token-${state}`}>{t(`token_${state}`)}</span>
        </td>
        <td>{token.expires_at === null ? t('never') : formatTime(language, token.expires_at)}</td>
        <td data-testid="token-last-used">{token.last_used_at === null ? t('neverUsed') : formatTime(language, token.last_used_at)}</td>
        <td>
          {token.quota === null
            ? t('usedUnlimited', { used: formatMoney(token.used) })
            : t('usedOf', { used: formatMoney(token.used), quota: formatMoney(token.quota) })}
        </td>
        <td className="actions">
          {token.revealable && !revealed && (
            <Button busy={busy} onClick={() => void tokens.getState().reveal(token.token_id)}>
              {t('reveal')}
            </Button>
          )}
          {token.revoked_at === null && !editing && (
            <Button onClick={() => setEditing(true)} label={t('editTokenNamed', { name: token.name })}>
              {t('edit')}
            </Button>
          )}
          {token.revoked_at !== null && (
            <ConfirmButton busy={busy} confirm={t('confirmDeleteToken')} onConfirm={() => tokens.getState().remove(token.token_id)}>
              {t('delete')}
            </ConfirmButton>
          )}
          {token.revoked_at === null && (
            <ConfirmButton busy={busy} confirm={t('confirmRevoke')} onConfirm={() => tokens.getState().revoke(token.token_id)}>
              {t('revoke')}
            </ConfirmButton>
          )}
        </td>
      </tr>
      {editing && (
        <tr className="edit-row">
          <td colSpan={COLUMNS}>
            <EditTokenForm token={token} onDone={() => setEditing(false)} />
          </td>
        </tr>
      )}
    </>
  );
}

export function TokensPage() {
  const t = useT();
  const { tokens } = useStores();
  const list = tokens((state) => state.tokens);
  const loading = tokens((state) => state.loading);
  const error = tokens((state) => state.error);
  const actionError = tokens((state) => state.actionError);
  useEffect(() => {
    void tokens.getState().load();
  }, [tokens]);
  return (
    <div className="page tokens-page">
      <CreateTokenForm />
      <Panel title={t('tokens')}>
        <ErrorNote message={error} onRetry={() => void tokens.getState().load()} />
        <ErrorNote message={actionError} />
        {loading && !list && <Progress label={t('loading')} />}
        {list && list.length === 0 && <EmptyState title={t('noTokensTitle')}>{t('noTokensBody')}</EmptyState>}
        {list && list.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-label={t('tokens')}>
              <thead>
                <tr>
                  <th>{t('tokenName')}</th>
                  <th>{t('secret')}</th>
                  <th>{t('state')}</th>
                  <th>{t('expires')}</th>
                  <th>{t('lastUsed')}</th>
                  <th>{t('usage')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((token) => (
                  <TokenRow key={token.token_id} token={token} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}
