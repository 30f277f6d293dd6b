import { requests, type Envelope, type RequestChannel } from '../../shared/contract';
import { AppError } from '../app-error';
import type { KastenApp } from '../app';

export function isRequestChannel(channel: string): channel is RequestChannel {
  return Object.hasOwn(requests, channel);
}

/**
 * The one path from a host into the services: parse the payload with the channel's schema, call its
 * handler, and turn every outcome into an envelope. Nothing thrown escapes to the host.
 */
export async function dispatch(
  app: Pick<KastenApp, 'handlers'>,
  channel: RequestChannel,
  payload: unknown,
): Promise<Envelope<unknown>> {
  const parsed = requests[channel].input.safeParse(payload);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`);
    return {
      ok: false,
      error: { code: 'invalid-input', message: `Invalid ${channel} request (${detail.join('; ')}).` },
    };
  }
  try {
    const handler = app.handlers[channel] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: { code: error.code, message: error.message } };
    console.error(`${channel} failed:`, error);
    return { ok: false, error: { code: 'internal', message: (error as Error).message ?? String(error) } };
  }
}
