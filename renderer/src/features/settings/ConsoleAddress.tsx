// Settings: whether the console address survives restarts (kept console secret) or is made per run; keeping or rotating the secret.
import { useState } from 'react';
import { useStores } from '../../context.ts';
import { useServerText } from '../../i18n/server-texts.ts';
import { useT } from '../../i18n/index.ts';
import { ErrorNote, Panel } from '../../components/ui.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { messageOf } from '../../stores/storage.ts';

export function ConsoleAddress() {
  const t = useT();
  const { status: statusStore, call, connection } = useStores();
  const status = statusStore((state) => state.status);
  const bridge = connection((state) => state.bridge);
  const serverText = useServerText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The desktop window carries its own token; it has no address to bookmark.
  if (!status || bridge) return null;
  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      const { consoleUrl } = await call('rotateConsoleSecret');
      // Only the new address opens the console now: this tab moves to it (and keeps it, as at any first opening).
      window.location.assign(consoleUrl);
    } catch (reason) {
      setError(messageOf(reason));
      setBusy(false);
      return false;
    }
  };
  return (
    <Panel title={t('consoleAddress')}>
      {status.consoleSecret === 'none' ? (
        <p className="muted">{t('consoleAddressPerRun')}</p>
      ) : (
        <>
          <p className="muted">
            {status.consoleSecret === 'kept'
              ? t('consoleAddressKept', { store: serverText(status.secrets.description) })
              : t('consoleAddressKeepable', { store: serverText(status.secrets.description) })}
          </p>
          <ConfirmButton
            kind="plain"
            busy={busy}
            question={t('consoleRotateConfirm')}
            confirm={status.consoleSecret === 'kept' ? t('consoleRotate') : t('consoleKeep')}
            onConfirm={rotate}
          >
            {status.consoleSecret === 'kept' ? t('consoleRotate') : t('consoleKeep')}
          </ConfirmButton>
        </>
      )}
      <ErrorNote message={error} />
    </Panel>
  );
}
