// Channels and Logs: empty states until relay mode lands, saying what they will hold and what works today.
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, EmptyState } from '../../components/ui.tsx';

export function RelayPage(props: { which: 'channels' | 'logs' }) {
  const t = useT();
  const go = useStores().navigation((state) => state.go);
  return (
    <div className="page">
      <EmptyState
        title={t(props.which === 'channels' ? 'channelsSoonTitle' : 'logsSoonTitle')}
        action={<Button onClick={() => go('playground')}>{t('openPlayground')}</Button>}
      >
        {t(props.which === 'channels' ? 'channelsSoonBody' : 'logsSoonBody')}
      </EmptyState>
    </div>
  );
}
