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

export function request<Output>() {
  return <Input extends z.ZodType>(input: Input): RequestDefinition<Input, Output> => ({ input });
}

export function event<Payload>(): EventDefinition<Payload> {
  return {};
}

/** A chat session's id, as every channel that names one takes it. */
export const sessionId = z.string().min(1).max(100);
