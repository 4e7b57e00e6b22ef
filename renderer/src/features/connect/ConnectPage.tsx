// Connect your tool: copyable setups of coding tools, SDKs and the shell, with the real base URL and a chosen token (or $TOKEN).
import { useEffect, useState } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, CopyButton, ErrorNote, Field, Panel, Tabs } from '../../components/ui.tsx';
import { SETUP_KINDS, setupText, TOKEN_ENV, type SetupKind } from './setups.ts';
import { useFamilyModels } from './family-models.ts';
import { CONNECT_TOOLS, type ConnectTool } from '../../../../shared/tool-config.ts';
import { ToolConfigPanel } from './ToolConfigPanel.tsx';

/** The token picker: none ($TOKEN), a token whose kept secret can be filled in, or a pasted secret. */
function useChosenSecret() {
  const { tokens } = useStores();
  const list = tokens((state) => state.tokens);
  const revealed = tokens((state) => state.revealed);
  const busy = tokens((state) => state.busy);
  const [tokenId, setTokenId] = useState('');
  const [pasted, setPasted] = useState('');
  useEffect(() => {
    if (list === null) void tokens.getState().load();
  }, [list, tokens]);
  const usable = (list ?? []).filter((token) => token.revoked_at === null);
  const chosen = usable.find((token) => token.token_id === tokenId);
  const secret = pasted.trim() !== '' ? pasted.trim() : chosen ? (revealed[chosen.token_id] ?? null) : null;
  return { usable, chosen, tokenId, setTokenId, pasted, setPasted, secret, busy: chosen ? busy.includes(chosen.token_id) : false };
}

export function ConnectPage() {
  const t = useT();
  const { status: statusStore, tokens } = useStores();
  const status = statusStore((state) => state.status);
  const actionError = tokens((state) => state.actionError);
  const [kind, setKind] = useState<SetupKind>('claude-code');
  const picked = useChosenSecret();
  const models = useFamilyModels();
  if (!status || !models) return <p className="muted">{t('loading')}</p>;
  const text = setupText(kind, { baseUrl: status.url, secret: picked.secret, models });
  return (
    <div className="page connect">
      <Panel title={t('connectToken')}>
        <p className="muted">{t('connectTokenHelp', { variable: `$${TOKEN_ENV}` })}</p>
        <div className="row wrap">
          <Field label={t('connectTokenPick')}>
            <select value={picked.tokenId} onChange={(event) => picked.setTokenId(event.target.value)} aria-label={t('connectTokenPick')}>
              <option value="">{t('connectTokenNone', { variable: `$${TOKEN_ENV}` })}</option>
              {picked.usable.map((token) => (
                <option key={token.token_id} value={token.token_id}>
                  {`${token.account} / ${token.name || token.hint} (${token.hint})`}
                </option>
              ))}
            </select>
          </Field>
          {picked.chosen && picked.secret === null && (
            <Button
              busy={picked.busy}
              disabled={!picked.chosen.revealable}
              onClick={() => void tokens.getState().reveal(picked.chosen!.token_id)}
            >
              {t('connectFillSecret')}
            </Button>
          )}
          <Field label={t('connectPaste')} hint={t('connectPasteHint')}>
            <input
              type="password"
              autoComplete="off"
              value={picked.pasted}
              onChange={(event) => picked.setPasted(event.target.value)}
              placeholder={t('connectPastePlaceholder')}
              aria-label={t('connectPaste')}
            />
          </Field>
        </div>
        {picked.chosen && !picked.chosen.revealable && picked.secret === null && (
          <p className="muted">{t('connectNotKept', { variable: `$${TOKEN_ENV}` })}</p>
        )}
        <ErrorNote message={actionError} />
      </Panel>
      <Panel title={t('connectSetups')}>
        <Tabs items={SETUP_KINDS} active={kind} onSelect={setKind} labelOf={(item) => t(`setup_${item}`)} label={t('connectSetups')} wrap />
        <p className="muted">{t(`setupHelp_${kind}`)}</p>
        <pre className="code" data-testid="setup">
          {text}
        </pre>
        <div className="row">
          <CopyButton text={text} />
          {picked.secret === null && <span className="muted">{t('connectUsesVariable', { variable: `$${TOKEN_ENV}` })}</span>}
        </div>
      </Panel>
      {(CONNECT_TOOLS as readonly string[]).includes(kind) && <ToolConfigPanel tool={kind as ConnectTool} />}
    </div>
  );
}
