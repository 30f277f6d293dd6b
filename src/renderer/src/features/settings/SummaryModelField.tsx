import type { ModelInfo } from '../../../../shared/model-domain';

/**
 * The model on the chat model's server that writes summaries of notes and of compacted chats: the chat
 * model unless another is picked (a smaller, faster one is the common choice).
 */
export function SummaryModelField({
  value,
  offered,
  onChange,
}: {
  value: string | null;
  offered: readonly ModelInfo[];
  onChange: (summaryModel: string | null) => void;
}) {
  if (offered.length === 0) {
    return (
      <label className="field">
        <span>Summaries written by</span>
        <input
          value={value ?? ''}
          placeholder="the chat model"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value.trim() || null)}
        />
      </label>
    );
  }
  // A model the server no longer lists stays shown as chosen rather than silently switching.
  const unlisted = value !== null && !offered.some((model) => model.id === value) ? value : null;
  return (
    <label className="field">
      <span>Summaries written by</span>
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">the chat model</option>
        {unlisted !== null && <option value={unlisted}>{unlisted}</option>}
        {offered.map((model) => (
          <option key={model.id} value={model.id}>
            {model.id}
          </option>
        ))}
      </select>
    </label>
  );
}
