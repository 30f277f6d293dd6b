import { useEffect, useState } from 'react';
import type { ModelSettings, ProviderKind } from '../../../../shared/chat-domain';
import { useEscapeLayer } from '../../components/use-escape-layer';
import { ContextWindowNote } from './ContextWindowNote';
import { KeyConfirmation } from './KeyConfirmation';
import { presetOf, presets } from './model-presets';
import { useSettingsStore } from './settings-store';
import { SummaryModelField } from './SummaryModelField';
import { VisionSetting } from './VisionSetting';
import { ContextSettingsSection } from '../context/ContextSettingsSection';
import { SemanticSearchSettings } from '../embeddings/SemanticSearchSettings';
import { PriceSettings } from './PriceSettings';
import { SummarySettings } from './SummarySettings';
import { ContextItemsSettings } from '../items/ContextItemsSettings';
import { PromptsSettings } from '../prompts/PromptsSettings';
import { McpServersSettings } from '../mcp/McpServersSettings';
import { WebPageSettings } from '../web/WebPageSettings';
import './settings.css';

/** The settings dialog: Escape or a click outside closes it. */
export function SettingsView() {
  const setup = useSettingsStore((state) => state.setup);
  const error = useSettingsStore((state) => state.error);
  const show = useSettingsStore((state) => state.show);

  useEscapeLayer(true, () => show(false));

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && show(false)}
    >
      <div
        className="modal settings"
        role="dialog"
        aria-modal="true"
        aria-label="Settings"
        data-testid="settings"
      >
        <header className="modal-header">
          <h2>Settings</h2>
          <button
            type="button"
            className="icon-button"
            aria-label="Close settings"
            onClick={() => show(false)}
          >
            ✕
          </button>
        </header>
        {setup ? <ModelForm saved={setup.settings} /> : <p className="muted">{error ?? 'Loading…'}</p>}
        {setup && <VisionSetting model={setup.settings.model} />}
        {setup && <SummarySettings />}
        {setup && <PriceSettings />}
        {setup && <ContextSettingsSection />}
        {/* Sections whose height comes with data loaded later go last: one opened by a hint stays in view. */}
        {setup && <SemanticSearchSettings />}
        {setup && <ContextItemsSettings />}
        {setup && <PromptsSettings />}
        {setup && <McpServersSettings />}
        {setup && <WebPageSettings />}
      </div>
    </div>
  );
}

/** Provider, server, key, model and context window; "Test connection" says what is wrong in plain words. */
function ModelForm({ saved: savedSettings }: { saved: ModelSettings }) {
  const { setup, window, report, testing, models, modelsError, error } = useSettingsStore();
  const { save, setKey, test, listModels, dismissKeyConfirmation } = useSettingsStore.getState();
  const [draft, setDraft] = useState<ModelSettings>(savedSettings);
  const [key, setKeyText] = useState('');
  const [saved, setSaved] = useState(false);

  const server = `${draft.provider} ${draft.baseUrl} ${draft.apiKeyEnv} ${setup?.key.source}`;
  useEffect(() => {
    const timer = setTimeout(() => void listModels(draft), 400);
    return () => clearTimeout(timer);
    // Listing again only when the server or its key changes, not on every keystroke elsewhere.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [server]);

  if (!setup) return null;
  const change = (patch: Partial<ModelSettings>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
    // A question about the old draft's server must not be answered for the new one.
    dismissKeyConfirmation();
  };
  const dirty = JSON.stringify(draft) !== JSON.stringify(setup.settings);
  const offered = models ?? [];
  const listed = offered.some((model) => model.id === draft.model);
  const keySource = setup.key.source;

  return (
    <>
      <section className="settings-section" aria-label="Chat model">
        <h3>Chat model</h3>
        <label className="field">
          <span>Server</span>
          <select
            value={presetOf(draft)}
            onChange={(event) => {
              const preset = presets.find((candidate) => candidate.name === event.target.value);
              if (preset) {
                change({ provider: preset.provider, baseUrl: preset.baseUrl, apiKeyEnv: preset.apiKeyEnv });
              }
            }}
          >
            {presets.map((preset) => (
              <option key={preset.name}>{preset.name}</option>
            ))}
            <option value="custom">Other server…</option>
          </select>
        </label>
        <label className="field">
          <span>Provider</span>
          <select
            value={draft.provider}
            onChange={(event) => change({ provider: event.target.value as ProviderKind })}
          >
            <option value="ollama">Ollama (native)</option>
            <option value="openai-compatible">OpenAI-compatible</option>
            <option value="anthropic">Anthropic</option>
          </select>
        </label>
        <label className="field">
          <span>Base URL</span>
          <input
            value={draft.baseUrl}
            spellCheck={false}
            onChange={(event) => change({ baseUrl: event.target.value.trim() })}
          />
        </label>
        <label className="field">
          <span>Model</span>
          {offered.length > 0 ? (
            <select
              value={draft.model}
              aria-label="Model"
              onChange={(event) => change({ model: event.target.value })}
            >
              {!listed && <option value={draft.model}>{draft.model || 'Choose a model…'}</option>}
              {offered.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.id}
                  {model.contextLength ? ` — ${model.contextLength.toLocaleString()} tokens` : ''}
                </option>
              ))}
            </select>
          ) : (
            <input
              value={draft.model}
              aria-label="Model"
              placeholder="e.g. llama3.1:8b"
              spellCheck={false}
              onChange={(event) => change({ model: event.target.value })}
            />
          )}
        </label>
        {modelsError && (
          <p className="field-note error" data-testid="models-error">
            Could not list the models: {modelsError}
          </p>
        )}
        <SummaryModelField
          value={draft.summaryModel}
          offered={offered}
          onChange={(summaryModel) => change({ summaryModel })}
        />

        <label className="field">
          <span>Context window</span>
          <input
            type="number"
            min={512}
            placeholder="automatic"
            value={draft.contextWindow ?? ''}
            onChange={(event) =>
              change({ contextWindow: event.target.value === '' ? null : Number(event.target.value) })
            }
          />
        </label>
        <ContextWindowNote
          saved={setup.settings}
          window={window}
          onUseNativeOllama={() =>
            change({ provider: 'ollama', baseUrl: draft.baseUrl.replace(/\/v1\/*$/, '') })
          }
        />
      </section>

      <section className="settings-section" aria-label="API key">
        <h3>API key</h3>
        <p className="field-note">
          The key stays in Kasten's main process; this window never sees it.
          {keySource === 'stored' && ' A key is stored for this server.'}
          {keySource === 'environment' && ` Using $${setup.settings.apiKeyEnv}.`}
          {keySource === null && ' No key is set (local servers need none).'}
        </p>
        {setup.key.refusal && <p className="field-note error">{setup.key.refusal}</p>}
        {setup.key.canStore ? (
          <div className="field-row">
            <input
              type="password"
              aria-label="API key"
              placeholder={keySource === 'stored' ? '•••••••• (stored)' : 'Paste a key'}
              value={key}
              autoComplete="off"
              onChange={(event) => setKeyText(event.target.value)}
            />
            <button
              type="button"
              disabled={key.trim() === ''}
              onClick={async () => {
                if ((dirty && !(await save(draft))) || !(await setKey(key))) return;
                setKeyText('');
              }}
            >
              Save key
            </button>
            {keySource === 'stored' && (
              <button type="button" onClick={() => void setKey(null)}>
                Forget key
              </button>
            )}
          </div>
        ) : (
          <p className="field-note">
            This host cannot store keys: set one in an environment variable before starting Kasten and name it
            here.
          </p>
        )}
        <label className="field">
          <span>Key from environment variable</span>
          <input
            value={draft.apiKeyEnv ?? ''}
            placeholder="e.g. OPENAI_API_KEY"
            spellCheck={false}
            onChange={(event) => change({ apiKeyEnv: event.target.value.trim() || null })}
          />
        </label>
      </section>

      {report && (
        <p
          className={`diagnosis ${report.ok ? 'diagnosis-ok' : 'diagnosis-problem'}`}
          role="status"
          data-testid="diagnosis"
        >
          {report.ok ? '✓ ' : '✗ '}
          {report.message}
        </p>
      )}
      <KeyConfirmation onSaved={setSaved} />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" disabled={testing} onClick={() => void test(draft)}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <span className="status-spacer" />
        {saved && !dirty && <span className="muted small">Saved.</span>}
        <button
          type="button"
          className="primary"
          disabled={!dirty}
          onClick={async () => setSaved(await save(draft))}
        >
          Save
        </button>
      </div>
    </>
  );
}
