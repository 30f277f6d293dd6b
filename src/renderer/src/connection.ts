/**
 * The page's link to the host. `lost`: the host went away, the page retries with backoff. `refused`: the
 * host answers but not to this page's token (it was restarted), so only its new address helps.
 */
export type ConnectionState = 'connecting' | 'connected' | 'lost' | 'refused';

export interface Connection {
  get(): ConnectionState;
  subscribe(listener: (state: ConnectionState, previous: ConnectionState) => void): () => void;
}

export function createConnection(
  initial: ConnectionState,
): Connection & { set(state: ConnectionState): void } {
  let state = initial;
  const listeners = new Set<(state: ConnectionState, previous: ConnectionState) => void>();
  return {
    get: () => state,
    set(next) {
      if (next === state) return;
      const previous = state;
      state = next;
      listeners.forEach((listener) => listener(next, previous));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
