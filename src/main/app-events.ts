import { ChannelListeners, type ChannelListener } from '../shared/channel-listeners';
import type { EventChannel, EventPayload } from '../shared/contract';

/** Hears every channel, as the hosts forward them: whatever the channel, its payload is that channel's. */
export type AppEventListener = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => void;

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
  private readonly channels = new ChannelListeners();
  /** Each state channel's latest event, as the call that tells it to a late listener. */
  private readonly latest = new Map<EventChannel, (listener: AppEventListener) => void>();

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    if (stateChannels.has(channel)) this.latest.set(channel, (listener) => listener(channel, payload));
    this.channels.tell(channel, payload);
    for (const listener of this.listeners) listener(channel, payload);
  }

  /** Hears one channel; returns the function that unsubscribes. */
  on<E extends EventChannel>(channel: E, listener: ChannelListener<E>): () => void {
    return this.channels.add(channel, listener);
  }

  /**
   * Hears every channel, for a host that forwards them all; returns the function that unsubscribes.
   * With `replay`, the listener first hears each state's latest value.
   */
  subscribe(listener: AppEventListener, options: { replay?: boolean } = {}): () => void {
    if (options.replay) for (const tell of this.latest.values()) tell(listener);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
