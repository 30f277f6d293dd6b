import { eventChannels, type EventChannel, type EventPayload } from './contract';

/** Hears one event channel. */
export type ChannelListener<E extends EventChannel> = (payload: EventPayload<E>) => void;

type ListenerSets = { readonly [E in EventChannel]: Set<ChannelListener<E>> };

/** Listeners kept per event channel, each told only its own channel's payloads. */
export class ChannelListeners {
  // An empty set per channel; TypeScript cannot see that building them by name fills the mapped type.
  private readonly sets = Object.fromEntries(
    eventChannels.map((channel) => [channel, new Set()]),
  ) as unknown as ListenerSets;

  /** Returns the function that removes the listener. */
  add<E extends EventChannel>(channel: E, listener: ChannelListener<E>): () => void {
    const listeners: Set<ChannelListener<E>> = this.sets[channel];
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  tell<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.sets[channel]) listener(payload);
  }
}
