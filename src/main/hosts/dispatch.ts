import {
  requests,
  type Caller,
  type Envelope,
  type RequestChannel,
  type RequestOutput,
} from '../../shared/contract';
import { AppError } from '../app-error';
import type { KastenApp } from '../app';

/** The desktop app and the CLI: the user is at this machine. */
export const atMachine: Caller = Object.freeze({ atMachine: true });
/** The browser host: anyone holding its address, which may have left this machine. */
export const fromBrowser: Caller = Object.freeze({ atMachine: false });

export function isRequestChannel(channel: string): channel is RequestChannel {
  return Object.hasOwn(requests, channel);
}

/**
 * The one path from a host into the services: parse the payload with the channel's schema, call its
 * handler with the caller the host vouches for, and turn every outcome into an envelope. Nothing thrown
 * escapes to the host.
 */
export async function dispatch<C extends RequestChannel>(
  app: Pick<KastenApp, 'handlers'>,
  channel: C,
  payload: unknown,
  caller: Caller,
): Promise<Envelope<RequestOutput<C>>> {
  const parsed = requests[channel].input.safeParse(payload);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`);
    return {
      ok: false,
      error: { code: 'invalid-input', message: `Invalid ${channel} request (${detail.join('; ')}).` },
    };
  }
  try {
    // The schema above parsed the payload into this channel's input.
    const handler = app.handlers[channel] as (input: unknown, caller: Caller) => Promise<RequestOutput<C>>;
    return { ok: true, value: await handler(parsed.data, { atMachine: caller.atMachine }) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: { code: error.code, message: error.message } };
    console.error(`${channel} failed:`, error);
    return { ok: false, error: { code: 'internal', message: (error as Error).message ?? String(error) } };
  }
}
