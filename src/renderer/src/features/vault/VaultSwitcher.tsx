import { useState, type FormEvent } from 'react';
import { useVaultStore } from './vault-store';

/** The vault's name; opens a panel to pick another folder, type a path, or reopen a recent vault. */
export function VaultSwitcher() {
  const { vault, recent, canPickFolder, error, open } = useVaultStore();
  const [expanded, setExpanded] = useState(false);
  const [path, setPath] = useState('');

  const openAndClose = async (target?: string) => {
    if (await open(target)) {
      setExpanded(false);
      setPath('');
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void openAndClose(path.trim());
  };

  return (
    <div className="vault-switcher">
      <button
        type="button"
        className="vault-name"
        aria-expanded={expanded}
        onClick={() => setExpanded(!expanded)}
        title={vault?.path ?? 'Open a vault'}
      >
        {vault?.name ?? 'Open a vault'} <span aria-hidden="true">▾</span>
      </button>
      {expanded && (
        <div
          className="vault-panel"
          role="dialog"
          aria-label="Open a vault"
          onKeyDown={(event) => event.key === 'Escape' && setExpanded(false)}
        >
          {canPickFolder && (
            <button type="button" className="primary" onClick={() => void openAndClose()}>
              Choose a folder…
            </button>
          )}
          <form onSubmit={submit} className="vault-path-form">
            <label htmlFor="vault-path">Folder path</label>
            <div className="row">
              <input
                id="vault-path"
                value={path}
                onChange={(event) => setPath(event.target.value)}
                placeholder="/home/me/Notes"
                spellCheck={false}
                autoFocus
              />
              <button type="submit">Open</button>
            </div>
          </form>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {recent.length > 0 && (
            <>
              <h3>Recent</h3>
              <ul className="recent-vaults">
                {recent.map((entry) => (
                  <li key={entry.path}>
                    <button type="button" onClick={() => void openAndClose(entry.path)} title={entry.path}>
                      <span>{entry.name}</span>
                      <span className="muted small">{entry.path}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
