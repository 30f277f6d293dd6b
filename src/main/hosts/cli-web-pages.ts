import { webAddressesIn } from '../../shared/web-addresses';
import { call, type CliHandlers } from './cli-call';

/**
 * The web pages a question names, fetched and counted as the composer does with a pasted address; their
 * tokens go with the question's attachments. A page that cannot be read stops the question, in words.
 */
export async function questionPages(app: CliHandlers, question: string): Promise<string[]> {
  const tokens: string[] = [];
  for (const url of webAddressesIn(question)) {
    try {
      tokens.push((await call(app, 'web:prepare', { url })).token);
    } catch (error) {
      throw new Error(`The page ${url} could not be given to the model: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return tokens;
}
