// Chat playground: model, format, system prompt and parameters; a streamed reply with stop; raw exchange and copy as curl.
import { useEffect, type FormEvent } from 'react';
import { FAULTS, MAX_LATENCY_MS, type Fault } from '../../../../shared/test-values.ts';
import { CHAT_FORMATS, toCurl } from '../../api/chat-formats.ts';
import { useStores } from '../../context.ts';
import { useT } from '../../i18n/index.ts';
import { Button, CopyButton, EmptyState, ErrorNote, Field, Panel, Tabs } from '../../components/ui.tsx';
import { useApiKey } from '../../components/use-api-key.ts';
import { ReplyMeasures } from './ReplyMeasures.tsx';

function Settings() {
  const t = useT();
  const { playground, models } = useStores();
  const state = playground();
  const catalogue = models((store) => store.models);
  useEffect(() => {
    if (catalogue === null) void models.getState().load();
  }, [catalogue, models]);
  // Chat models only (the gateway's list says which; until it comes, what /v1/models listed); any other typed name is sent as it is.
  const chatModels = catalogue === null ? state.models : catalogue.filter((model) => model.chat).map((model) => model.id);
  return (
    <Panel title={t('chatSettings')} className="chat-settings">
      <Field label={t('format')}>
        <Tabs
          items={CHAT_FORMATS}
          active={state.format}
          onSelect={(format) => state.set({ format })}
          labelOf={(format) => t(`format_${format}`)}
          label={t('format')}
          disabled={state.streaming}
        />
      </Field>
      <Field label={t('model')} error={state.modelsError} hint={t('modelTypeAny')}>
        <input
          list="playground-chat-models"
          value={state.model}
          onChange={(event) => state.set({ model: event.target.value })}
          aria-label={t('model')}
          spellCheck={false}
        />
        <datalist id="playground-chat-models">
          {chatModels.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      </Field>
      <label className="check">
        <input
          type="checkbox"
          checked={state.stream}
          disabled={state.streaming}
          onChange={(event) => state.set({ stream: event.target.checked })}
        />
        {t('streamReply')}
      </label>
      <Field label={t('systemPrompt')}>
        <textarea rows={3} value={state.system} onChange={(event) => state.set({ system: event.target.value })} />
      </Field>
      <Field label={t('temperature', { value: state.temperature })}>
        <input
          type="range"
          min={0}
          max={2}
          step={0.1}
          value={state.temperature}
          onChange={(event) => state.set({ temperature: Number(event.target.value) })}
        />
      </Field>
      <Field label={t('maxTokens')}>
        <input
          type="number"
          min={1}
          max={32768}
          value={state.maxTokens}
          onChange={(event) => state.set({ maxTokens: Math.max(1, Number(event.target.value) || 1) })}
        />
      </Field>
      <details className="test-values">
        <summary>{t('testValues')}</summary>
        <p className="muted small">{t('testValuesHint')}</p>
        <Field label={t('pace')}>
          <input
            type="number"
            min={0}
            max={1000}
            placeholder={t('paceOff')}
            value={state.pace || ''}
            onChange={(event) => state.set({ pace: Math.min(1000, Math.max(0, Number(event.target.value) || 0)) })}
          />
        </Field>
        <Field label={t('latency')}>
          <input
            type="number"
            min={0}
            max={MAX_LATENCY_MS}
            step={100}
            placeholder={t('latencyOff')}
            value={state.latencyMs || ''}
            onChange={(event) => state.set({ latencyMs: Math.min(MAX_LATENCY_MS, Math.max(0, Number(event.target.value) || 0)) })}
          />
        </Field>
        <Field label={t('fault')}>
          <select value={state.fault} onChange={(event) => state.set({ fault: event.target.value as Fault | '' })}>
            <option value="">{t('faultNone')}</option>
            {FAULTS.map((fault) => (
              <option key={fault} value={fault}>
                {fault}
              </option>
            ))}
          </select>
        </Field>
      </details>
    </Panel>
  );
}

function RawExchange(props: { baseUrl: string }) {
  const t = useT();
  const { playground } = useStores();
  const request = playground((state) => state.lastRequest);
  const raw = playground((state) => state.rawResponse);
  if (!request) return null;
  return (
    <Panel title={t('rawExchange')} actions={<CopyButton text={toCurl(props.baseUrl, request)} label={t('copyAsCurl')} />}>
      <details open>
        <summary>{t('rawRequest')}</summary>
        <pre className="code small" data-testid="raw-request">{`POST ${request.path}\n${Object.entries(request.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}\n\n${JSON.stringify(request.body, null, 2)}`}</pre>
      </details>
      <details>
        <summary>{t('rawResponse')}</summary>
        <pre className="code small" data-testid="raw-response">
          {raw}
        </pre>
      </details>
    </Panel>
  );
}

export function PlaygroundPage() {
  const t = useT();
  const { playground, status } = useStores();
  const baseUrl = status((state) => state.status?.url ?? '');
  const { key, obtain, forget, busy: keyBusy, error: keyError } = useApiKey();
  const turns = playground((state) => state.turns);
  const output = playground((state) => state.output);
  const streaming = playground((state) => state.streaming);
  const stopped = playground((state) => state.stopped);
  const error = playground((state) => state.error);
  const input = playground((state) => state.input);
  useEffect(() => {
    if (key) void playground.getState().loadModels(key.secret);
  }, [key, playground]);

  if (!key) {
    return (
      <div className="page">
        <EmptyState
          title={t('playgroundNeedsToken')}
          action={
            <Button kind="primary" busy={keyBusy} onClick={() => void obtain()}>
              {t('useToken')}
            </Button>
          }
        >
          {t('playgroundNeedsTokenBody')}
        </EmptyState>
        <ErrorNote message={keyError} />
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void playground.getState().send(key.secret);
  };
  return (
    <div className="page playground-page">
      <Settings />
      <div className="stack">
        <Panel
          title={t('conversation')}
          actions={
            <>
              <span className="muted small">{t('usingToken', { name: key.tokenId })}</span>
              <Button onClick={forget} disabled={streaming}>
                {t('switchToken')}
              </Button>
              <Button onClick={() => playground.getState().clear()} disabled={turns.length === 0 && !streaming}>
                {t('clear')}
              </Button>
            </>
          }
        >
          <div className="chat" aria-live="polite">
            {turns.length === 0 && !streaming && <p className="muted">{t('chatEmpty')}</p>}
            {turns.map((turn, index) => (
              <div key={index} className={`turn ${turn.role}`}>
                <div className={`bubble ${turn.role}`} data-role={turn.role}>
                  {turn.text}
                </div>
                {turn.stats && <ReplyMeasures stats={turn.stats} />}
              </div>
            ))}
            {streaming && (
              <div className="bubble assistant streaming" data-testid="streaming-reply">
                {output}
                <span className="caret" aria-hidden="true" />
              </div>
            )}
            {stopped && (
              <p className="muted" data-testid="stopped-note">
                {t('replyStopped')}
              </p>
            )}
          </div>
          <ErrorNote message={error} />
          <form className="chat-input" onSubmit={submit}>
            <textarea
              rows={3}
              value={input}
              placeholder={t('messagePlaceholder')}
              aria-label={t('message')}
              onChange={(event) => playground.getState().set({ input: event.target.value })}
              onKeyDown={(event) => {
                // Enter sends and Shift+Enter starts a new line; never while an input method is composing (its Enter picks a word).
                if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
                submit(event);
              }}
            />
            {streaming ? (
              <Button kind="danger" onClick={() => playground.getState().stop()}>
                {t('stop')}
              </Button>
            ) : (
              <Button type="submit" kind="primary" disabled={input.trim() === ''}>
                {t('send')}
              </Button>
            )}
          </form>
        </Panel>
        <RawExchange baseUrl={baseUrl} />
      </div>
    </div>
  );
}
