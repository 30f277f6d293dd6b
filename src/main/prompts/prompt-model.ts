import { AppError } from '../app-error';
import type { ChatModel } from '../llm/llm-types';
import type { ModelService } from '../llm/model-service';

type Models = Pick<ModelService, 'offeredModels' | 'chatModelNamed' | 'setup'>;

/** The models the server offers, as a sentence's end: "it offers a, b and 3 more". */
function offering(offered: readonly string[]): string {
  if (offered.length === 0) return 'it lists no models';
  const shown = offered.slice(0, 5).join(', ');
  return offered.length > 5 ? `it offers ${shown} and ${offered.length - 5} more` : `it offers ${shown}`;
}

/**
 * Why a prompt's `model:` does not run, in words, or null when it does: the chat's server must offer
 * the model it names. When the server cannot say (unreachable, no list), the model is tried as named.
 */
export async function promptModelProblem(
  model: string | null,
  models: Models,
  offered?: readonly string[] | null,
): Promise<string | null> {
  if (model === null) return null;
  const listed = offered === undefined ? await models.offeredModels() : offered;
  if (listed === null || listed.includes(model)) return null;
  const server = models.setup().settings.baseUrl;
  return (
    `It asks for the model “${model}”, which ${server} does not offer (${offering(listed)}): ` +
    'change its model: line, or remove it to use the chat’s model.'
  );
}

/** The model a saved prompt's answer comes from: the one its `model:` names, refused in words when not offered. */
export async function promptModel(
  prompt: { name: string; model: string | null },
  models: Models,
): Promise<ChatModel | undefined> {
  if (prompt.model === null) return undefined;
  const problem = await promptModelProblem(prompt.model, models);
  if (problem) throw new AppError('invalid-input', `The prompt “${prompt.name}” does not run: ${problem}`);
  return models.chatModelNamed(prompt.model);
}
