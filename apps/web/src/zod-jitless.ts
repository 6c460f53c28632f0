/**
 * What `zod` means in the web build (vite.config.ts aliases it here). Zod compiles object parsers with
 * `new Function` when it may; under our CSP (no 'unsafe-eval') even its probe is reported as a policy
 * violation. `jitless` skips the probe and the compiler (zod's documented setting for strict CSPs). Set here,
 * zod's own module, it holds before any schema anywhere is built or parsed, however late zod is loaded.
 */
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
