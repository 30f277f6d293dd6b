import { contextStrategies, type ContextStrategy } from '../../shared/context-domain';
import type { ModelSettings } from '../../shared/chat-domain';
import type { CliAppEnvironment } from './cli-app';
import { CliUsageError as UsageError } from './cli-arguments';
import { runChatCommand, type ChatCommandEnvironment } from './cli-chat-commands';
import type { CliEnvironment } from './cli';
import type { AskItemFlags } from './cli-items-commands';

/** What `kasten` passes on to a chat command besides its own arguments: all but the renderer. */
export type ChatRouteEnvironment = Omit<CliEnvironment, 'rendererDir'>;

/**
 * --provider, --base-url, --model, --summary-model and --api-key-env: the models for this run, over the
 * stored settings.
 */
export function modelFlags(values: Record<string, string | boolean | undefined>): Partial<ModelSettings> {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const provider = text('provider');
  if (provider !== undefined && !['ollama', 'openai-compatible', 'anthropic'].includes(provider))
    throw new UsageError(`--provider must be ollama, openai-compatible or anthropic, not "${provider}".`);
  const baseUrl = text('base-url') ?? (provider === 'anthropic' ? 'https://api.anthropic.com/v1' : undefined);
  const apiKeyEnv = text('api-key-env') ?? (provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined);
  return Object.fromEntries(
    Object.entries({
      provider,
      baseUrl,
      model: text('model'),
      summaryModel: text('summary-model'),
      apiKeyEnv,
    }).filter(([, value]) => value !== undefined),
  );
}

export const chatCommands = ['ask', 'sessions', 'summarize', 'context', 'compact', 'rules'] as const;

export function isChatCommand(command: string): command is (typeof chatCommands)[number] {
  return (chatCommands as readonly string[]).includes(command);
}

/** --strategy and --window: how this run fits requests to the model's window. */
function contextFlags(values: Record<string, string | boolean | undefined>) {
  const { strategy, window } = values;
  if (strategy !== undefined && !(contextStrategies as readonly unknown[]).includes(strategy))
    throw new UsageError(`--strategy must be ${contextStrategies.join(', ')}, not "${String(strategy)}".`);
  const tokens = window === undefined ? undefined : Number(window);
  if (tokens !== undefined && (!Number.isInteger(tokens) || tokens < 512 || tokens > 10_000_000))
    throw new UsageError(
      `--window must be a number of tokens from 512 to 10000000, not "${String(window)}".`,
    );
  return { strategy: strategy as ContextStrategy | undefined, window: tokens };
}

/** `--vision on|off`: whether this run's model sees images, whatever Kasten would find out. */
function visionFlag(value: string | boolean | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError(`--vision must be on or off, not "${String(value)}".`);
}

export function chatCommand(
  command: (typeof chatCommands)[number],
  rest: string[],
  values: Record<string, string | boolean | undefined>,
  items: AskItemFlags,
  { dataDir, embeddings }: Pick<CliAppEnvironment, 'dataDir' | 'embeddings'>,
  env: ChatRouteEnvironment,
): Promise<number> {
  const [vault, question, extra] = rest;
  if (vault === undefined) throw new UsageError(`kasten ${command} needs the vault folder.`);
  const savedPrompt = savedPromptFlags(command, values);
  if (savedPrompt && (items.pins.length > 0 || items.rules.length > 0))
    throw new UsageError('--pin and --rule do not go with --prompt: a prompt names its rules in include:.');
  if (command === 'ask' && !savedPrompt && (question === undefined || question.trim() === ''))
    throw new UsageError('kasten ask needs a question (or --prompt NAME).');
  const unexpected = command === 'ask' ? extra : question;
  if (unexpected !== undefined) throw new UsageError(`Unexpected argument "${unexpected}".`);
  const sessionId = typeof values.session === 'string' ? values.session : undefined;
  if ((command === 'context' || command === 'compact') && sessionId === undefined)
    throw new UsageError(`kasten ${command} needs --session ID.`);
  const { strategy, window } = contextFlags(values);
  const model = { ...modelFlags(values), ...(window === undefined ? {} : { contextWindow: window }) };
  const focus = typeof values.focus === 'string' ? values.focus : undefined;
  // runChatCommand opens the app with this environment as it is, so the embedding model rides along.
  const chatEnv: ChatCommandEnvironment & CliAppEnvironment = {
    dataDir,
    embeddings,
    resourcesDir: env.resourcesDir,
    indexWorker: env.indexWorker,
    stdout: env.stdout,
    stderr: env.stderr,
    write: env.write ?? env.stdout,
    untilStopped: env.untilStopped,
  };
  const args = { command, vault, question, sessionId, json: values.json === true, model, strategy, focus };
  return runChatCommand(
    {
      ...args,
      allowWrites: values['allow-writes'] === true,
      vision: visionFlag(values.vision),
      allowPrivateUrls: values['allow-private-urls'] === true,
      items,
      yes: values.yes === true,
      savedPrompt,
    },
    chatEnv,
  );
}

/** `ask --prompt NAME [--note PATH] [--selection TEXT]`: a saved prompt instead of (or before) a question. */
function savedPromptFlags(command: string, values: Record<string, string | boolean | undefined>) {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const [name, note, selection] = [text('prompt'), text('note'), text('selection')];
  if (name === undefined) {
    if (note !== undefined || selection !== undefined)
      throw new UsageError('--note and --selection go with --prompt NAME.');
    return undefined;
  }
  if (command !== 'ask') throw new UsageError('--prompt goes with kasten ask.');
  if (name.trim() === '') throw new UsageError('--prompt needs the name of a saved prompt.');
  return { name, note, selection };
}
