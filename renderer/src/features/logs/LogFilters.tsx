// The Logs filters: outcome, API family, model, path, body search and time range (typed text applies after a short pause), live updates and clearing.
import { JOURNAL_PROTOCOLS, type JournalOutcome, type JournalProtocol } from '../../../../shared/journal.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { useAccountChoices } from '../../components/use-account-choices.ts';
import { TextFilter } from '../../components/TextFilter.tsx';

export function LogFilters() {
  const t = useT();
  const { journal } = useStores();
  const filter = journal((state) => state.filter);
  const accounts = useAccountChoices(filter.account);
  const live = journal((state) => state.live);
  const clearing = journal((state) => state.clearing);
  const clearError = journal((state) => state.clearError);
  const setFilter = journal.getState().setFilter;
  return (
    <div className="filters log-filters">
      <label>
        {t('logOutcome')}
        <select
          value={filter.outcome}
          aria-label={t('logOutcome')}
          onChange={(event) => void setFilter({ outcome: event.target.value as JournalOutcome | '' })}
        >
          <option value="">{t('logAnyOutcome')}</option>
          <option value="ok">{t('logOutcomeOk')}</option>
          <option value="error">{t('logOutcomeError')}</option>
        </select>
      </label>
      <label>
        {t('logProtocol')}
        <select
          value={filter.protocol}
          aria-label={t('logProtocol')}
          onChange={(event) => void setFilter({ protocol: event.target.value as JournalProtocol | '' })}
        >
          <option value="">{t('logAnyProtocol')}</option>
          {JOURNAL_PROTOCOLS.map((protocol) => (
            <option key={protocol} value={protocol}>
              {t(`protocol_${protocol}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('account')}
        <select value={filter.account} aria-label={t('logAccount')} onChange={(event) => void setFilter({ account: event.target.value })}>
          <option value="">{t('logAnyAccount')}</option>
          {accounts.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <TextFilter
        label={t('logModel')}
        placeholder={t('example', { value: 'sim-chat' })}
        value={filter.model}
        onApply={(model) => void setFilter({ model })}
      />
      <TextFilter
        label={t('logPath')}
        placeholder={t('example', { value: '/v1/chat' })}
        value={filter.path}
        onApply={(path) => void setFilter({ path })}
      />
      <TextFilter
        label={t('logTestId')}
        placeholder={t('example', { value: 'checkout-retry' })}
        value={filter.testId}
        onApply={(testId) => void setFilter({ testId })}
      />
      <TextFilter label={t('logSearch')} placeholder={t('logSearchPlaceholder')} value={filter.q} onApply={(q) => void setFilter({ q })} />
      <label>
        {t('logFrom')}
        <input
          type="datetime-local"
          value={filter.since}
          aria-label={t('logFrom')}
          onChange={(event) => void setFilter({ since: event.target.value })}
        />
      </label>
      <label>
        {t('logTo')}
        <input
          type="datetime-local"
          value={filter.until}
          aria-label={t('logTo')}
          onChange={(event) => void setFilter({ until: event.target.value })}
        />
      </label>
      <label className="check-inline">
        <input type="checkbox" checked={live} onChange={(event) => void journal.getState().setLive(event.target.checked)} />
        {t('logLive')}
      </label>
      <ConfirmButton kind="plain" busy={clearing} confirm={t('logClearConfirm')} onConfirm={() => journal.getState().clear()}>
        {t('logClear')}
      </ConfirmButton>
      <ErrorNote message={clearError} />
    </div>
  );
}
