import type { KastenApi } from '../../shared/kasten-api';
import { createBrowserClient } from './browser-client';

/** The only reader of `window.kasten`: the desktop preload sets it; in a browser the client stands in. */
export const kasten: KastenApi = window.kasten ?? (window.kasten = createBrowserClient());

export { describeError } from '../../shared/kasten-api';
