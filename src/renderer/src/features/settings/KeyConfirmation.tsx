import { useSettingsStore } from './settings-store';

/**
 * Asks before the key in an environment variable goes to a server it was not confirmed for: the settings
 * could have been changed by anyone holding the browser host's address, and the key is the user's.
 */
export function KeyQuestion({
  message,
  variable,
  onConfirm,
  onCancel,
}: {
  /** The main process's question, naming the variable and the server. */
  message: string;
  variable: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      className="diagnosis diagnosis-problem"
      role="alertdialog"
      aria-label="Send the key to this server?"
      data-testid="key-confirmation"
    >
      <p>{message}</p>
      <div className="field-row">
        <button type="button" className="primary" onClick={onConfirm}>
          Send ${variable} to this server
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The chat model's question, for a save or a connection test. */
export function KeyConfirmation({ onSaved }: { onSaved: (saved: boolean) => void }) {
  const pending = useSettingsStore((state) => state.keyConfirmation);
  const { save, test, dismissKeyConfirmation } = useSettingsStore.getState();
  if (!pending) return null;
  const confirm = async () => {
    if (pending.action === 'save') onSaved(await save(pending.settings, true));
    else await test(pending.settings, true);
  };
  return (
    <KeyQuestion
      message={pending.message}
      variable={pending.settings.apiKeyEnv}
      onConfirm={() => void confirm()}
      onCancel={dismissKeyConfirmation}
    />
  );
}
