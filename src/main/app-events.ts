import type { EventChannel, EventPayload } from '../shared/contract';

export type AppEventListener = (channel: EventChannel, payload: unknown) => void;

/**
 * Channels that carry a state rather than a happening: a host that connects late (a browser page whose
 * socket opens after an indexing pass ended) is told their latest value, or it would wait forever.
 */
const stateChannels: ReadonlySet<EventChannel> = new Set<EventChannel>([
  'index:progress',
  'embeddings:progress',
]);

/** The push events of the contract, fanned out to every connected host. */
export class AppEvents {
  private readonly listeners = new Set<AppEventListener>();
  private readonly latest = new Map<EventChannel, unknown>();

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    if (stateChannels.has(channel)) this.latest.set(channel, payload);
    for (const listener of this.listeners) listener(channel, payload);
  }

  /** Returns the function that unsubscribes. With `replay`, the listener first hears each state's latest value. */
  subscribe(listener: AppEventListener, options: { replay?: boolean } = {}): () => void {
    if (options.replay) for (const [channel, payload] of this.latest) listener(channel, payload);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
