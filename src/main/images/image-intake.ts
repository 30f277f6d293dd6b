import { refuseAttachment, type AttachmentResult } from '../../shared/attachment-domain';
import { AppError } from '../app-error';
import type { ImageIntake } from '../items/attachment-intake';
import { imageAttachment, isImageFile, maxImagesPerMessage } from './image-attachment';
import { ImageRefusal } from './image-normalize';
import type { ImageStore } from './image-store';

/** The sentence a model that takes no images is refused with, before anything is sent. */
export const cannotSeeImages = (model: string, name?: string) =>
  `${name ? `“${name}” cannot be sent: this` : 'This'} model cannot see images (${model} takes text only). Choose a model that sees images, or set “Sees images” for this model in Settings → Images if it does.`;

/** Images dropped, pasted or attached (`kasten ask --attach`), for the attachment intake. */
export function imageIntake(
  store: ImageStore,
  vision: () => Promise<{ sees: boolean; model: string }>,
): ImageIntake {
  const refuseUnseeing = async (name?: string) => {
    const { sees, model } = await vision();
    if (!sees) throw new AppError('unsupported', cannotSeeImages(model, name));
  };
  return {
    isImage: isImageFile,
    async read(name, bytes): Promise<AttachmentResult> {
      await refuseUnseeing(name);
      try {
        return await imageAttachment(store, name, bytes);
      } catch (error) {
        if (!(error instanceof ImageRefusal)) throw error;
        return refuseAttachment(name, error.code, error.message);
      }
    },
    async check(count) {
      if (count === 0) return;
      if (count > maxImagesPerMessage) {
        throw new AppError(
          'too-large',
          `This message has ${count} images; one message can carry at most ${maxImagesPerMessage}. Send them over several messages.`,
        );
      }
      await refuseUnseeing();
    },
  };
}
