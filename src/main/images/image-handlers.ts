import type { Handlers } from '../../shared/contract';
import type { ModelVision } from '../../shared/images-contract';
import type { VisionChoice } from './vision-settings';

export interface ImageHandlerServices {
  /** Whether the chat model sees images, with where that was learned and the user's choice. */
  vision: () => Promise<ModelVision>;
  setChoice: (choice: VisionChoice) => void;
}

/** The handlers of the images' channels. */
export function imageHandlers(
  services: ImageHandlerServices,
): Pick<Handlers, 'images:vision' | 'images:setVision'> {
  return {
    'images:vision': async () => services.vision(),
    'images:setVision': async ({ choice }) => {
      services.setChoice(choice);
      return services.vision();
    },
  };
}
