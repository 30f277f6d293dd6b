import { z } from 'zod';

// Zod probes for `new Function` to compile faster parsers; the CSP (`script-src 'self'`) refuses it and
// reports the probe as a violation. The interpreted parsers are the ones that run either way.
z.config({ jitless: true });
