import { z } from 'zod';
import { request } from './contract-definitions';

/** The user's word on whether the chat model sees images; `auto` lets Kasten find out. */
export const visionChoices = ['auto', 'on', 'off'] as const;
export type VisionChoiceName = (typeof visionChoices)[number];

/** Whether the chat model sees images, where Kasten learned it, and what the user chose for it. */
export interface ModelVision {
  model: string;
  sees: boolean;
  /** `setting` (Settings), `this-run` (`--vision`), `ollama` (/api/show), `openrouter` (/models), `known-models`. */
  source: 'setting' | 'this-run' | 'ollama' | 'openrouter' | 'known-models';
  choice: VisionChoiceName;
}

/** Channels of images: whether the chat model sees them, set per model in Settings. */
export const imageRequests = {
  /** Whether the configured chat model sees images. */
  'images:vision': request<ModelVision>()(() => z.undefined()),
  /** Says for the configured chat model whether it sees images (`auto`: as its server or the table says). */
  'images:setVision': request<ModelVision>()(() => z.object({ choice: z.enum(visionChoices) }).strict()),
};
