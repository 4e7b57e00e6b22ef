// Listens for the console's keyboard shortcuts and shows their list on `?`.
import { useEffect, useRef, useState } from 'react';
import { useStores } from '../context.ts';
import { useT, type MessageKey } from '../i18n/index.ts';
import { copyText } from './clipboard.ts';
import { GO_KEYS, isTyping, shortcutOf } from './shortcuts.ts';

/** How long `g` waits for its second key. */
const PREFIX_MS = 1500;

/** The list of shortcuts, as the overlay shows it. */
function Overlay(props: { onClose: () => void; titles: Record<string, MessageKey> }) {
  const t = useT();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={t('shortcutsTitle')} onClick={props.onClose}>
      <div className="overlay-box" onClick={(event) => event.stopPropagation()}>
        <h2>{t('shortcutsTitle')}</h2>
        <table className="shortcuts">
          <tbody>
            {Object.entries(GO_KEYS).map(([key, page]) => (
              <tr key={key}>
                <td>
                  <kbd>g</kbd> <kbd>{key}</kbd>
                </td>
                <td>{t('shortcutGo', { page: t(props.titles[page]!) })}</td>
              </tr>
            ))}
            <tr>
              <td>
                <kbd>/</kbd>
              </td>
              <td>{t('shortcutSearch')}</td>
            </tr>
            <tr>
              <td>
                <kbd>b</kbd>
              </td>
              <td>{t('shortcutCopyBaseUrl')}</td>
            </tr>
            <tr>
              <td>
                <kbd>?</kbd>
              </td>
              <td>{t('shortcutHelp')}</td>
            </tr>
            <tr>
              <td>
                <kbd>Esc</kbd>
              </td>
              <td>{t('shortcutClose')}</td>
            </tr>
          </tbody>
        </table>
        <button ref={closeRef} className="button" onClick={props.onClose}>
          {t('close')}
        </button>
      </div>
    </div>
  );
}

/** Installs the shortcuts; `titles` names each page for the overlay. */
export function Shortcuts(props: { titles: Record<string, MessageKey> }) {
  const t = useT();
  const { navigation, status, connection } = useStores();
  const bridge = connection((state) => state.bridge);
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    let prefixUntil = 0;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const action = shortcutOf(event.key, Date.now() < prefixUntil);
      prefixUntil = 0;
      switch (action.kind) {
        case 'prefix':
          prefixUntil = Date.now() + PREFIX_MS;
          return;
        case 'go':
          setOpen(false);
          navigation.getState().go(action.page);
          break;
        case 'search': {
          const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
          if (!field) return;
          field.focus();
          break;
        }
        case 'copyBaseUrl': {
          const url = status.getState().status?.url;
          if (!url) return;
          copyText(url, bridge).then(
            () => setNotice(t('shortcutCopied', { url })),
            () => setNotice(t('copyFailed')),
          );
          break;
        }
        case 'help':
          setOpen((value) => !value);
          break;
        case 'close':
          setOpen(false);
          return;
        case 'none':
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigation, status, bridge, t]);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), 2500);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <>
      {notice && (
        <div className="toast" role="status">
          {notice}
        </div>
      )}
      {open && <Overlay titles={props.titles} onClose={() => setOpen(false)} />}
    </>
  );
}
