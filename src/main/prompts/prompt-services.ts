import type { Handlers } from '../../shared/contract';
import type { PromptInfo, PromptsView } from '../../shared/prompt-domain';
import type { ChatService } from '../chat/chat-service';
import type { ModelService } from '../llm/model-service';
import type { ItemService } from '../items/item-service';
import type { RequestServices } from '../composition/request-services';
import type { VaultServices } from '../composition/vault-services';
import type { TextVectors } from '../embeddings/text-vectors';
import { promptModel, promptModelProblem } from './prompt-model';
import { PromptRunner } from './prompt-runner';
import { PromptSettingsStore } from './prompt-settings';
import { PromptsCatalog, type SavedPrompt } from './prompts-catalog';

type PromptChannels = 'prompts:list' | 'prompts:configure' | 'prompts:send';

/** Saved prompts: the vault's prompts folder, its notes read as rules are, and the runner that fills them. */
export function promptServices(
  { db, index, openPath, readNote }: VaultServices,
  { count }: Pick<RequestServices, 'count'>,
  vectors: TextVectors,
  models: ModelService,
  items: ItemService,
  now?: () => Date,
) {
  const settings = new PromptSettingsStore(db, openPath);
  const catalog = new PromptsCatalog({ notesUnder: (folder) => index.noteHashesUnder(folder), readNote });
  const runner = new PromptRunner({
    catalog,
    folder: () => settings.folder(),
    index,
    readNote,
    tokens: (text) => count.tokensOf(text),
    budget: (window) => count.budget(window),
    vectors,
    model: (prompt) => promptModel(prompt, models),
    now,
  });
  return { settings, catalog, runner, models, items };
}

export type PromptServices = ReturnType<typeof promptServices>;

/** The handlers of the saved prompts' channels; `prompts:send` is answered by the chat as `chat:send` is. */
export function promptHandlers(
  { settings, catalog, runner, models, items }: PromptServices,
  chat: ChatService,
): Pick<Handlers, PromptChannels> {
  const view = async (): Promise<PromptsView> => {
    const folder = settings.folder();
    const prompts = await catalog.list(folder);
    // Asked once per listing, and only when a prompt names a model.
    const offered = prompts.some((prompt) => prompt.model) ? await models.offeredModels() : null;
    return {
      folder,
      prompts: await Promise.all(
        prompts.map(async (prompt) => {
          // What would refuse the send is said in the list beforehand, and the prompt does not run.
          const problems = [
            ...(await items.missing(prompt.include)).map((missing) => `include: ${missing}`),
            ...[await promptModelProblem(prompt.model, models, offered)].filter((line) => line !== null),
          ];
          const info = infoOf(prompt);
          return problems.length === 0
            ? info
            : { ...info, warnings: [...info.warnings, ...problems], usable: false };
        }),
      ),
    };
  };
  return {
    'prompts:list': view,
    'prompts:configure': async ({ folder }) => {
      settings.setFolder(folder);
      return view();
    },
    'prompts:send': async (input) => {
      const message = await runner.message(input);
      const { done: _done, ...started } = await chat.send(message.send, undefined, message.extras);
      return { ...started, userMessage: started.userMessage! };
    },
  };
}

function infoOf({ body: _body, ...info }: SavedPrompt): PromptInfo {
  return info;
}
