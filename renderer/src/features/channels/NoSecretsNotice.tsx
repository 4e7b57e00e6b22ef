// On a gateway that keeps no secrets: why (the real cause, such as no keychain found), and the one click that keeps them in a locked file in the data dir.
import { useEffect, useState } from 'react';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { Button, ErrorNote } from '../../components/ui.tsx';

export function NoSecretsNotice() {
  const t = useT();
  const serverText = useServerText();
  const { status, settings, connection } = useStores();
  const secrets = status((state) => state.status?.secrets);
  const canRestart = status((state) => state.status?.canRestart ?? false);
  const bridge = connection((state) => state.bridge);
  const view = settings((state) => state.view);
  const error = settings((state) => state.error);
  const [busy, setBusy] = useState(false);
  const [savedOnly, setSavedOnly] = useState(false);
  const keepsNothing = secrets?.kind === 'none';
  useEffect(() => {
    if (keepsNothing && !settings.getState().view) void settings.getState().load();
  }, [keepsNothing, settings]);
  if (!keepsNothing) return null;

  const pinnedBy = view?.pinned.secrets;
  const keepInFile = async () => {
    setBusy(true);
    try {
      if (!(await settings.getState().keepSecretsInFile())) return;
      // The new store takes effect when the server starts again: restart it here when this host can.
      if (bridge) {
        const next = await settings.getState().restart(bridge);
        if (next) connection.getState().setDesktop(next);
      } else if (canRestart) {
        await settings.getState().restartServe(status.getState().status?.startedAt ?? 0);
      } else setSavedOnly(true);
      await Promise.all([status.getState().load(), settings.getState().load()]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="notice no-secrets" role="status">
      <p>{t('channelsNoSecrets', { cause: secrets.cause ? serverText(secrets.cause) : t('secretsChosenNone') })}</p>
      {view?.editable && !pinnedBy && !savedOnly && (
        <>
          <Button kind="primary" busy={busy} onClick={() => void keepInFile()}>
            {t('keepSecretsInFile')}
          </Button>
          <p className="muted small">{t('keepSecretsInFileMeaning')}</p>
        </>
      )}
      {pinnedBy && <p className="muted small">{t('keepSecretsPinned', { flag: pinnedBy })}</p>}
      {view && !view.editable && <p className="muted small">{t('keepSecretsReadOnly')}</p>}
      {savedOnly && <p className="muted small">{t('keepSecretsSavedRestart')}</p>}
      <ErrorNote message={error} />
    </div>
  );
}
