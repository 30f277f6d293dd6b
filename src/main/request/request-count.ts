import type { Budget } from './budget';
import type { ContextEngine } from './context-engine';
import type { ModelProfile } from './context-types';
import type { ContextWindow } from '../../shared/chat-domain';
import { imageRuleFor, type ImageRule } from '../images/image-rules';
import { tokenizerFor } from './count/token-encodings';

/**
 * The one count and room every source of a request is sized with (notes, rules, tool schemas,
 * attachments, the meter): the engine's calibrated count for the configured model, and the budget of
 * its window. One per app; the session context and the items ask the same object.
 */
export class RequestCount {
  constructor(
    private readonly engine: ContextEngine,
    private readonly profile: () => ModelProfile,
    private readonly window: () => Promise<ContextWindow>,
  ) {}

  /**
   * A text's tokens for the configured model, calibrated: what a linked or pinned note, a rule, a tool
   * schema or an attachment costs, in the unit of every figure the user sees and of the budget.
   */
  tokensOf(text: string): number {
    return this.engine.estimate(this.profile(), text).calibrated;
  }

  /** The budget of the next request in `window`, else the model's (the engine's one answer to "how much room?"). */
  async budget(window?: ContextWindow): Promise<Budget> {
    const { tokens } = window ?? (await this.window());
    return this.engine.budget(this.profile(), tokens);
  }

  /** The rule the configured model's images are fitted and counted by (its family's provider's). */
  imageRule(): ImageRule {
    const { model, provider } = this.profile();
    return imageRuleFor(tokenizerFor(model, provider).family);
  }

  /** The most one attached file may take (an item's share of usable), and the window it is in. */
  async attachmentRoom(): Promise<{ tokens: number; window: number }> {
    const budget = await this.budget();
    return { tokens: budget.itemCap, window: budget.window };
  }
}
