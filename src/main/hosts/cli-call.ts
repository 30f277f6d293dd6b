import type { RequestChannel, RequestOutput } from '../../shared/contract';
import { AppError } from '../app-error';
import type { KastenApp } from '../app';
import { atMachine, dispatch } from './dispatch';

/** What a CLI command needs of the app: the contract's handlers, as every host reaches the services. */
export type CliHandlers = Pick<KastenApp, 'handlers'>;

/**
 * Calls a channel as the user at this machine, through the same parse and envelope as the other hosts;
 * a refusal becomes the command's error, with the message the service gave.
 */
export async function call<C extends RequestChannel>(
  app: CliHandlers,
  channel: C,
  /** Checked by the channel's schema, as a host's payload is: `kasten mcp add` builds one from flags. */
  input: unknown,
): Promise<RequestOutput<C>> {
  const envelope = await dispatch(app, channel, input, atMachine);
  if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message);
  return envelope.value;
}
