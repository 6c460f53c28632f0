/** The page's head start (lib/head-start.ts, decision 0066): built on its own into a small classic script. */
import { startHeadStart } from './lib/head-start.ts';

startHeadStart();
