/** For this feature's tests: the list and the detail page as the app routes them, rendered at `path`. */
import type { RouteObject } from 'react-router';
import { renderRoutes } from '../../../test/render-routes.tsx';
import ActionNeededRoute from './action-needed.tsx';
import ActionNeededDetailRoute from './action-needed-detail.tsx';

export const ACTION_NEEDED_ROUTES: RouteObject[] = [
  { path: '/action-needed', Component: ActionNeededRoute },
  { path: '/action-needed/:prescriptionId/:authType', Component: ActionNeededDetailRoute },
];

/** Renders the two routes (and any `extra` a test needs to land on) at `path`; returns the router. */
export const renderActionNeeded = (path: string, extra: RouteObject[] = []) =>
  renderRoutes([...ACTION_NEEDED_ROUTES, ...extra], path);
