import type { ResolvedLink } from './index-domain';

/** Which host is serving the contract. */
export type HostKind = 'electron' | 'web' | 'cli';

export interface AppInfo {
  name: string;
  version: string;
  host: HostKind;
  platform: string;
  dataDir: string;
  /** Whether the host can show a native folder picker (desktop only). */
  canPickFolder: boolean;
}

export interface VaultSummary {
  name: string;
  /** Absolute path of the vault folder on this machine. */
  path: string;
  noteCount: number;
  attachmentCount: number;
  /** The folder disappeared (deleted or unplugged) while open; the index is kept for its return. */
  missing: boolean;
}

export interface RecentVault {
  name: string;
  path: string;
  openedAt: string;
}

export interface NoteEntry {
  kind: 'note';
  /** File name without `.md`. */
  name: string;
  /** Vault-relative, `/`-separated. */
  path: string;
}

export interface AttachmentEntry {
  kind: 'attachment';
  name: string;
  path: string;
}

export interface FolderEntry {
  kind: 'folder';
  name: string;
  path: string;
  noteCount: number;
  children: TreeEntry[];
}

export type TreeEntry = FolderEntry | NoteEntry | AttachmentEntry;

export interface VaultTree {
  vault: VaultSummary | null;
  entries: TreeEntry[];
}

export interface NoteFile {
  path: string;
  name: string;
  content: string;
  size: number;
  modifiedAt: string;
  /** The wikilinks, embeds and Markdown links in `content`, resolved against the vault. */
  links: ResolvedLink[];
}

export interface AttachmentFile {
  path: string;
  mimeType: string;
  /** The file's bytes, base64-encoded so every host can carry them as JSON. */
  base64: string;
  size: number;
}

export interface VaultChange {
  vault: VaultSummary;
  /** `returned`: the open vault's folder, missing for a while, is back and was read again. */
  reason: 'opened' | 'files' | 'missing' | 'returned';
  /** Vault-relative paths that were added, changed or removed (empty when opened). */
  paths: string[];
  /** Files were added or removed, so the tree differs; false when files were only edited. */
  treeChanged: boolean;
}
