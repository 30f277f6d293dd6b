import type { EventChannel, EventPayload } from '../shared/contract';

export type AppEventListener = (channel: EventChannel, payload: unknown) => void;

/** The push events of the contract, fanned out to every connected host. */
export class AppEvents {
  private readonly listeners = new Set<AppEventListener>();

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener(channel, payload);
  }

  /** Returns the function that unsubscribes. */
  subscribe(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
