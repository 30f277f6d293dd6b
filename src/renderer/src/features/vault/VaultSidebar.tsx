import { SearchBox, SearchResults } from '../search/SearchPanel';
import { searchActive, useSearchStore } from '../search/search-store';
import { NoteTree } from './NoteTree';
import { useVaultStore } from './vault-store';
import { VaultSwitcher } from './VaultSwitcher';
import './vault.css';

/** The left sidebar: vault switcher, search box, and the note tree or the search results. */
export function VaultSidebar() {
  const loaded = useVaultStore((state) => state.loaded);
  const vault = useVaultStore((state) => state.vault);
  const error = useVaultStore((state) => state.error);
  const searching = useSearchStore(searchActive);

  return (
    <nav className="sidebar" aria-label="Vault">
      <header className="pane-header">
        <VaultSwitcher />
      </header>
      {vault?.missing && (
        <p className="banner" role="alert" data-testid="vault-missing">
          The folder {vault.path} is gone (deleted, moved or unplugged). The notes below are from the index;
          open another vault or put the folder back.
        </p>
      )}
      {!loaded ? (
        <p className="muted pad">Loading…</p>
      ) : vault ? (
        <>
          <SearchBox />
          {searching ? <SearchResults /> : <NoteTree />}
        </>
      ) : (
        <p className="muted pad">{error ?? 'No vault is open.'}</p>
      )}
    </nav>
  );
}
