import { useEffect } from 'react';
import { useVaultStore } from '../vault/vault-store';
import { useWriteSettingsStore } from './write-settings-store';

/**
 * The open vault's "allow writes" switch: on, the model is offered `create_note` and `append_to_note`,
 * and every change it proposes still waits for the user's approval in the chat.
 */
export function WritesToggle() {
  const vaultPath = useVaultStore((state) => state.vault?.path ?? null);
  const settings = useWriteSettingsStore((state) => state.settings);
  const error = useWriteSettingsStore((state) => state.error);
  const { load, setEnabled } = useWriteSettingsStore.getState();
  // Each vault has its own switch: read it again when another vault opens.
  useEffect(() => {
    void load();
  }, [vaultPath, load]);
  // Until the open vault's own switch is read, it is shown off and cannot be turned.
  const known = settings !== null && settings.vault === vaultPath;
  const enabled = known && settings.enabled;
  return (
    <label
      className={`writes-toggle small${enabled ? ' writes-on' : ''}`}
      title={
        error ??
        'Let the assistant create, append to and edit notes in this vault. Every change waits for your approval, and can be undone.'
      }
    >
      <input
        type="checkbox"
        data-testid="allow-writes"
        checked={enabled}
        disabled={vaultPath === null || !known}
        onChange={(event) => void setEnabled(event.target.checked)}
      />
      Allow writes
    </label>
  );
}
