import type { KastenApi } from '../shared/kasten-api';

declare global {
  interface Window {
    /** Set by the desktop preload; the browser host's client installs the same API. */
    kasten?: KastenApi;
  }
}

export {};
