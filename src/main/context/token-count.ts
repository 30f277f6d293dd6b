import { countTokens as countO200k } from 'gpt-tokenizer';

/**
 * Tokens in `text` by the o200k encoding. Other model families tokenize differently; this is the
 * estimate budgets are planned with, and providers' reported usage corrects it after each call.
 * gpt-tokenizer: same counts as js-tiktoken at about an eighth of the time (measured, 2 KB messages).
 */
export function countTokens(text: string): number {
  return countO200k(text);
}
