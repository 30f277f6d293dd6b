import { encodingCounter } from './token-encodings';

/**
 * Tokens in `text` by the o200k encoding, the default for models whose encoding is not known. Text
 * containing special-token markers (`<|endoftext|>`) is counted as plain text instead of throwing. The
 * context engine counts per model family and calibrates; this is for estimates made before a model is
 * involved (a linked note's cost).
 */
export function countTokens(text: string): number {
  return encodingCounter('o200k_base')(text);
}
