import type { Handlers } from '../../shared/contract';
import type { webRequests } from '../../shared/web-contract';
import type { WebPages } from './web-pages';
import type { WebSaver } from './web-saver';
import type { WebSettingsStore } from './web-settings';

/** The handlers of the web channels: each is one call. */
export function webHandlers(services: {
  pages: WebPages;
  settings: WebSettingsStore;
  saver: WebSaver;
}): Pick<Handlers, keyof typeof webRequests> {
  const { pages, settings, saver } = services;
  return {
    'web:prepare': async ({ url }) => pages.prepare(url),
    'web:settings': async () => settings.get(),
    'web:configure': async (input) => settings.set(input),
    'web:save': async ({ sessionId, url }) => saver.propose(sessionId, url),
    'web:decide': async ({ token, approved }) => saver.decide(token, approved),
  };
}
