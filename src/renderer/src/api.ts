import type { KastenApi } from '../../shared/kasten-api';
import { createBrowserClient } from './browser-client';
import { createConnection } from './connection';

const browser = window.kasten ? null : createBrowserClient();

/** The only reader of `window.kasten`: the desktop preload sets it; in a browser the client stands in. */
export const kasten: KastenApi = window.kasten ?? (window.kasten = browser!.api);

/** The desktop window talks to its own process and is always connected. */
export const connection = browser?.connection ?? createConnection('connected');

export { describeError } from '../../shared/kasten-api';
