// Channels: an empty state until relay mode lands, saying what the page will hold and what works today.
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, EmptyState } from '../../components/ui.tsx';

export function ChannelsPage() {
  const t = useT();
  const go = useStores().navigation((state) => state.go);
  return (
    <div className="page">
      <EmptyState title={t('channelsSoonTitle')} action={<Button onClick={() => go('playground')}>{t('openPlayground')}</Button>}>
        {t('channelsSoonBody')}
      </EmptyState>
    </div>
  );
}
