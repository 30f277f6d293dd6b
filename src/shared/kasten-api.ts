import {
  eventChannels,
  requestChannels,
  type Envelope,
  type ErrorCode,
  type EventChannel,
  type EventPayload,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
} from './contract';

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type Capitalized<S extends string> = S extends `${infer H}${infer T}` ? `${Uppercase<H>}${T}` : S;

/**
 * `window.kasten`: one namespace per domain, one method per request channel
 * (`kasten.notes.read(...)`) and one `onX` subscription per event (`kasten.vault.onChanged(...)`).
 */
export type KastenApi = {
  [D in DomainOf<RequestChannel> | DomainOf<EventChannel>]: {
    [C in RequestChannel as C extends `${D}:${infer V}` ? V : never]: undefined extends RequestInput<C>
      ? (input?: RequestInput<C>) => Promise<RequestOutput<C>>
      : (input: RequestInput<C>) => Promise<RequestOutput<C>>;
  } & {
    [E in EventChannel as E extends `${D}:${infer N}` ? `on${Capitalized<N>}` : never]: (
      listener: (payload: EventPayload<E>) => void,
    ) => () => void;
  };
};

/** How an API implementation reaches the main process. */
export interface KastenTransport {
  invoke(channel: RequestChannel, input: unknown): Promise<Envelope<unknown>>;
  subscribe<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/**
 * A failed request, as the renderer sees it. A plain object rather than an Error subclass: Electron's
 * contextBridge copies errors without their custom properties, and the code must survive the bridge.
 */
export interface KastenError {
  name: 'KastenError';
  code: ErrorCode;
  message: string;
}

export function isKastenError(value: unknown): value is KastenError {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'KastenError';
}

/** A message fit to show the user, whatever was thrown. */
export function describeError(value: unknown): string {
  if (isKastenError(value) || value instanceof Error) return value.message;
  return String(value);
}

function split(channel: string): [string, string] {
  const [domain, name] = channel.split(':');
  if (!domain || !name) throw new Error(`Malformed channel name: ${channel}`);
  return [domain, name];
}

/** Builds the namespaced API from the contract; the preload and the browser client both use it. */
export function createKastenApi(transport: KastenTransport): KastenApi {
  const api: Record<string, Record<string, unknown>> = {};
  const namespace = (domain: string) => (api[domain] ??= {});
  for (const channel of requestChannels) {
    const [domain, verb] = split(channel);
    namespace(domain)[verb] = async (input?: unknown) => {
      const envelope = await transport.invoke(channel, input);
      if (!envelope.ok) {
        const error: KastenError = { name: 'KastenError', ...envelope.error };
        throw error;
      }
      return envelope.value;
    };
  }
  for (const channel of eventChannels) {
    const [domain, name] = split(channel);
    namespace(domain)[`on${name.charAt(0).toUpperCase()}${name.slice(1)}`] = (
      listener: (payload: unknown) => void,
    ) => transport.subscribe(channel, listener);
  }
  return api as unknown as KastenApi;
}

export type { EventPayload };
