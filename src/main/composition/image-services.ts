import { AppError } from '../app-error';
import type { ModelVision } from '../../shared/images-contract';
import { imageIntake } from '../images/image-intake';
import { ImageStore } from '../images/image-store';
import { withEmbeddedImages } from '../images/note-image-embeds';
import { RecentResults } from '../images/recent-results';
import { VisionCapability, visionKey } from '../images/vision-capability';
import { visionModel } from '../images/vision-model';
import { VisionSettings } from '../images/vision-settings';
import type { ChatModel } from '../llm/llm-types';
import type { AppOptions } from './app-options';
import type { ModelServices } from './model-services';
import type { RequestServices } from './request-services';
import type { VaultServices } from './vault-services';

/**
 * Images for models that see them: the kept images, whether the chat model sees them, the intake of
 * dropped images, note embeds as images, and the model call that sends them in the provider's form.
 */
export function imageServices(
  options: AppOptions,
  { db, index, vault }: VaultServices,
  llm: ModelServices,
  request: RequestServices,
) {
  const store = new ImageStore(db);
  const settings = new VisionSettings(db);
  const capability = new VisionCapability((key) => settings.choice(key), options.vision ?? null);
  const vision = async (): Promise<ModelVision> => {
    const chosen = llm.settings.get();
    if (chosen.model.trim() === '') {
      throw new AppError(
        'invalid-input',
        'No chat model is chosen yet: pick a provider and a model in Settings.',
      );
    }
    const found = await capability.of(chosen, llm.keys.key(chosen));
    return { model: chosen.model, ...found, choice: settings.choice(visionKey(chosen)) };
  };
  const sees = async () => (await vision()).sees;
  // The meter reads the notes a draft links as it is typed: their images are decoded once a while.
  const embedded = new RecentResults<string>(20, 30_000);
  return {
    store,
    vision,
    setChoice: (choice: 'auto' | 'on' | 'off') => settings.set(visionKey(llm.settings.get()), choice),
    intake: imageIntake(store, vision),
    /** The chat model with the images its requests name sent as images. */
    withImages: (model: ChatModel): ChatModel =>
      visionModel(model, { sees, rule: request.count.imageRule(), image: (hash) => store.get(hash) }),
    /** A note as a model that sees images reads it: each image it embeds follows the embed. */
    async readNote(path: string) {
      const note = await vault.readNote(path);
      if (!(await sees().catch(() => false))) return note;
      const content = await embedded.get(`${path}\u0000${note.content}`, () =>
        withEmbeddedImages(path, note.content, {
          links: (source, text) => index.linksIn(source, text),
          readFile: async (file) => Buffer.from((await vault.readAttachment(file)).base64, 'base64'),
          store,
        }),
      );
      return { ...note, content };
    },
  };
}

export type ImageServices = ReturnType<typeof imageServices>;
