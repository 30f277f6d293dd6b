import type { ContextWindow, ContextWindowSource, ModelSettings } from '../../shared/chat-domain';
import { trimmedBaseUrl } from './model-list';

/** Where kept windows persist (the app database's settings table); a map in tests. */
export interface NamedWindowStore {
  get(key: string): string | null;
  put(key: string, value: string): void;
  delete(key: string): void;
}

/** A store in memory, for a service without a database. */
export function memoryNamedWindowStore(): NamedWindowStore {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key) ?? null,
    put: (key, value) => void values.set(key, value),
    delete: (key) => void values.delete(key),
  };
}

/** A window a server named in a context-length error, and what its metadata said then. */
interface NamedWindow {
  tokens: number;
  /** When it was named (ISO 8601). */
  at: string;
  /** The figure the server's metadata gave when it was named; null when it gave none. */
  metadata: number | null;
}

/** Figures the server itself reports: one that changes means the server was restarted or reloaded. */
const metadataSources = new Set<ContextWindowSource>([
  'ollama-loaded',
  'modelfile',
  'server-loaded',
  'provider',
]);

/**
 * Windows servers named when they refused a request as too long, kept per server and model across runs:
 * a server that says nothing about its window otherwise (the fallback, a known-models guess) is planned
 * for with the figure it named, until the user sets a window, its metadata reports another figure than
 * when it was named, or it takes a prompt larger than the kept figure.
 */
export class NamedContextWindows {
  constructor(
    private readonly store: NamedWindowStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The window to use for `settings`, given the one resolved from the setting, the server and the tables. */
  apply(settings: ModelSettings, resolved: ContextWindow): ContextWindow {
    if (resolved.source === 'user') return resolved;
    const kept = this.get(settings);
    if (!kept) return resolved;
    if (metadataSources.has(resolved.source) && resolved.tokens !== kept.metadata) {
      this.forget(settings);
      return resolved;
    }
    return { tokens: kept.tokens, source: 'server-error', namedAt: kept.at };
  }

  /** Keeps the window the server named; `resolved` is what was known before, metadata or not. */
  named(settings: ModelSettings, tokens: number, resolved: ContextWindow): void {
    const metadata = metadataSources.has(resolved.source) ? resolved.tokens : null;
    const entry: NamedWindow = { tokens, at: this.now().toISOString(), metadata };
    this.store.put(keyOf(settings), JSON.stringify(entry));
  }

  /** A prompt of `tokens` fitted: a kept window smaller than that is stale. True when one was dropped. */
  taken(settings: ModelSettings, tokens: number): boolean {
    const kept = this.get(settings);
    if (!kept || tokens <= kept.tokens) return false;
    this.forget(settings);
    return true;
  }

  forget(settings: ModelSettings): void {
    this.store.delete(keyOf(settings));
  }

  private get(settings: ModelSettings): NamedWindow | null {
    const stored = this.store.get(keyOf(settings));
    return stored === null ? null : (JSON.parse(stored) as NamedWindow);
  }
}

function keyOf(settings: ModelSettings): string {
  return `context window named ${settings.provider} ${trimmedBaseUrl(settings)} ${settings.model}`;
}
