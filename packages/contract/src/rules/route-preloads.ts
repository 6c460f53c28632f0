/**
 * The table the web build writes beside index.html (apps/web/build/route-preloads.ts) and the server reads
 * (apps/server/src/plugins/web-app.ts): per landing route, the files its first screen needs beyond the entry's own
 * (decision 0047).
 */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** A route's files, in the order a phone needs them: scripts, and stylesheets. */
export interface RoutePreloads {
  scripts: string[];
  styles: string[];
  /** Scripts the page runs the moment they arrive, before the entry: the landing screens' head start (decision 0066). */
  starts?: string[];
}

/** What the build writes: the built files only, `/assets/<name>.js|css`. Nothing else may reach a page's head. */
const ASSET_HREF = /^\/assets\/[\w.-]+\.(?:js|css)$/;

const isHrefList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((href) => typeof href === 'string' && ASSET_HREF.test(href));

/** The table, or the entries of it that are what the build writes; nothing when it is not JSON. */
export function readRoutePreloads(text: string): Map<string, RoutePreloads> {
  const table = new Map<string, RoutePreloads>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return table;
  }
  if (typeof parsed !== 'object' || parsed === null) return table;
  for (const [route, files] of Object.entries(parsed)) {
    const { scripts, styles, starts } = (files ?? {}) as Record<string, unknown>;
    if (!route.startsWith('/') || !isHrefList(scripts) || !isHrefList(styles)) continue;
    if (starts === undefined) table.set(route, { scripts, styles });
    else if (isHrefList(starts) && starts.every((href) => href.endsWith('.js'))) table.set(route, { scripts, styles, starts });
  }
  return table;
}
