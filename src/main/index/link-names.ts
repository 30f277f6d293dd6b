import { VaultLinkResolver } from '../../shared/links/link-resolver';
import type { IndexStore } from './index-store';

interface ReadNames {
  resolver: VaultLinkResolver;
  aliases: Map<string, string[]>;
}

/**
 * The resolver mirroring the vault's names, and each note's aliases, read from the index when first
 * needed: a search of an index that is up to date resolves no link, and reading them costs a 10k-note
 * vault's `kasten search` about a sixth of its time (every note's names, aliases, headings and blocks).
 */
export class LinkNames {
  private read: ReadNames | null = null;

  constructor(private readonly store: IndexStore) {}

  get resolver(): VaultLinkResolver {
    return this.current().resolver;
  }

  /** Aliases per note path, to know which keys a note answered to before it changed. */
  get aliases(): Map<string, string[]> {
    return this.current().aliases;
  }

  /** Another process changed the index: read them again when next needed. */
  forget(): void {
    this.read = null;
  }

  private current(): ReadNames {
    if (this.read) return this.read;
    const notes = this.store.resolverNotes();
    this.read = {
      resolver: new VaultLinkResolver(notes, this.store.attachmentStates().keys()),
      aliases: new Map(notes.map((note) => [note.path, note.aliases])),
    };
    return this.read;
  }
}
