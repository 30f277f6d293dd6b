import { z } from 'zod';

/** A request channel: its input schema, and its output type carried as a phantom. */
export interface RequestDefinition<Input extends z.ZodType, Output> {
  readonly input: Input;
  readonly output?: Output;
}

/** A push event sent from the main process to the renderer. */
export interface EventDefinition<Payload> {
  readonly payload?: Payload;
}

/**
 * A request channel whose input schema is built when first used: building every channel's schema as the
 * contract loaded took about 50 ms of each start (zod makes a schema object per chained call).
 */
export function request<Output>() {
  return <Input extends z.ZodType>(define: () => Input): RequestDefinition<Input, Output> => {
    let input: Input | undefined;
    return {
      get input() {
        return (input ??= define());
      },
    };
  };
}

export function event<Payload>(): EventDefinition<Payload> {
  return {};
}

/** A chat session's id, as every channel that names one takes it. */
export const sessionId = z.string().min(1).max(100);
