/**
 * Zod compiles object parsers with `new Function` when it may; under our CSP (no 'unsafe-eval') even its probe
 * is reported as a policy violation. `jitless` skips the probe and the compiler (zod's documented setting for
 * strict CSPs). Imported first by main.tsx, before any schema parses.
 */
import { z } from 'zod';

z.config({ jitless: true });
