// The Settings page's Prices card: the owner's price table per model (USD per million tokens), set or reset a model's price.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { formatMoney } from '../../../../shared/money.ts';
import { DEFAULT_PRICE_MODEL, type PriceRow } from '../../../../shared/prices.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, ErrorNote, Field, Panel } from '../../components/ui.tsx';
import { ApiError } from '../../api/http.ts';
import { messageOf } from '../../stores/storage.ts';

const DECIMAL = /^\d+(\.\d+)?$/;

interface Draft {
  model: string;
  input: string;
  output: string;
}

export function PricesCard() {
  const t = useT();
  const { call } = useStores();
  const [rows, setRows] = useState<PriceRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>({ model: '', input: '', output: '' });
  const [problem, setProblem] = useState<{ field: keyof Draft | null; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [resetting, setResetting] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setRows(await call('listPrices'));
      setError(null);
    } catch (reason) {
      setError(messageOf(reason));
    }
  }, [call]);
  useEffect(() => void load(), [load]);

  const edit = (row: PriceRow) => {
    setDraft({ model: row.model, input: String(row.input_per_mtok), output: String(row.output_per_mtok) });
    setProblem(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const model = draft.model.trim();
    if (model === '') return setProblem({ field: 'model', message: t('priceModelNeeded') });
    for (const field of ['input', 'output'] as const) {
      if (!DECIMAL.test(draft[field].trim())) return setProblem({ field, message: t('priceNumberNeeded') });
    }
    setSaving(true);
    setProblem(null);
    try {
      await call('setPrice', {
        params: { model },
        body: { input_per_mtok: Number(draft.input.trim()), output_per_mtok: Number(draft.output.trim()) },
      });
      setDraft({ model: '', input: '', output: '' });
      await load();
    } catch (reason) {
      const param = reason instanceof ApiError ? reason.param : null;
      const field = param === 'input_per_mtok' ? 'input' : param === 'output_per_mtok' ? 'output' : param === 'model' ? 'model' : null;
      setProblem({ field, message: messageOf(reason) });
    } finally {
      setSaving(false);
    }
  };
  const reset = async (model: string) => {
    setResetting(model);
    try {
      await call('resetPrice', { params: { model } });
      await load();
    } catch (reason) {
      setError(messageOf(reason));
    } finally {
      setResetting(null);
    }
  };
  const fieldError = (field: keyof Draft) => (problem?.field === field ? problem.message : null);

  return (
    <Panel title={t('prices')}>
      <p className="muted small">{t('pricesNote')}</p>
      <ErrorNote message={error} onRetry={() => void load()} />
      {rows && (
        <div className="table-scroll">
          <table className="table prices-table">
            <thead>
              <tr>
                <th>{t('model')}</th>
                <th className="number">{t('priceInput')}</th>
                <th className="number">{t('priceOutput')}</th>
                <th>{t('priceSource')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.model} data-model={row.model}>
                  <td>
                    <code title={row.model}>{row.model === DEFAULT_PRICE_MODEL ? t('priceDefaultRow') : row.model}</code>
                  </td>
                  <td className="number">{formatMoney(row.input_per_mtok)}</td>
                  <td className="number">
                    {formatMoney(row.output_per_mtok)}
                    {row.per_call > 0 && (
                      <span className="muted small"> {t('priceRowPerCall', { amount: formatMoney(row.per_call) })}</span>
                    )}
                  </td>
                  <td className="muted small">{row.source === 'owner' ? t('priceByOwner') : t('priceDocumented')}</td>
                  <td className="actions">
                    <Button onClick={() => edit(row)} label={t('priceEdit', { model: row.model })}>
                      {t('edit')}
                    </Button>
                    {row.source === 'owner' && (
                      <Button
                        busy={resetting === row.model}
                        onClick={() => void reset(row.model)}
                        label={t('priceReset', { model: row.model })}
                      >
                        {t('reset')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('priceSet')}>
        <Field label={t('model')} error={fieldError('model')} hint={t('priceModelHint')}>
          <input value={draft.model} spellCheck={false} onChange={(event) => setDraft({ ...draft, model: event.target.value })} />
        </Field>
        <div className="row">
          <Field label={t('priceInput')} error={fieldError('input')}>
            <input value={draft.input} inputMode="decimal" onChange={(event) => setDraft({ ...draft, input: event.target.value })} />
          </Field>
          <Field label={t('priceOutput')} error={fieldError('output')}>
            <input value={draft.output} inputMode="decimal" onChange={(event) => setDraft({ ...draft, output: event.target.value })} />
          </Field>
        </div>
        <div className="row">
          <Button type="submit" kind="primary" busy={saving}>
            {t('priceSet')}
          </Button>
        </div>
        {problem && problem.field === null && <ErrorNote message={problem.message} />}
      </form>
    </Panel>
  );
}
