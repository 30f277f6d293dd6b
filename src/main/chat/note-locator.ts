import { posix, win32 } from 'node:path';
import type { HybridSearchResult, RelatedNotes } from '../../shared/embedding-domain';
import type { ModalSearchRequest } from '../embeddings/embedding-handlers';
import type { VaultIndex } from '../index/vault-index';
import type { VaultService } from '../vault/vault-service';

/** What the chat tools need of the vault: confined reads, the index, search in every mode, related notes. */
export interface ToolVault {
  readNote: VaultService['readNote'];
  index: Pick<VaultIndex, 'resolve' | 'resolveInMessage' | 'backlinks' | 'note'>;
  /** Search as the contract's `search:notes` does (hybrid when embeddings are on), with why it fell back. */
  search: (request: ModalSearchRequest) => Promise<HybridSearchResult>;
  related: (request: { path: string; limit?: number }) => Promise<RelatedNotes>;
  /** The note's best summary: the model's, when cached for its content, else its trimmed lead; '' if unknown. */
  summary: (path: string) => string;
}

/**
 * Finds the note a model (or a user) means: a vault-relative path, or a title, alias or link target
 * resolved as a wikilink. Absolute paths and `..` are refused before anything is looked up; the read
 * itself is confined again (symlinks) by the vault.
 */
export async function locateNote(
  vault: ToolVault,
  reference: string,
): Promise<{ path: string; title: string }> {
  const raw = reference
    .trim()
    .replace(/^\[\[|\]\]$/g, '')
    .replaceAll('\\', '/');
  if (posix.isAbsolute(raw) || win32.isAbsolute(reference.trim()) || /^[a-z]:/i.test(raw)) {
    throw new Error(`"${reference}" is an absolute path: only notes inside the vault can be read.`);
  }
  if (raw.split('/').includes('..')) {
    throw new Error(`"${reference}" points outside the vault: only notes inside the vault can be read.`);
  }
  const path = raw.replace(/^(\.\/)+/, '');
  for (const candidate of [path, `${path}.md`]) {
    const note = vault.index.note(candidate);
    if (note) return { path: note.path, title: note.title };
  }
  const found = vault.index.resolveInMessage({ target: path.replace(/\.md$/i, ''), subpath: null });
  if (found.path && found.kind === 'note') {
    return { path: found.path, title: vault.index.note(found.path)?.title ?? found.path };
  }
  // Not in the index (a symlink the scan skipped, a file just created): the vault's read decides.
  if (/\.md$/i.test(path)) return { path, title: path };
  throw new Error(`There is no note "${reference}" in the vault. Use search_notes to find it.`);
}
