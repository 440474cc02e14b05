import { drawRoute } from '../route-draw.ts';
import type { MapLayer } from './layer.ts';

/** The route's runs of rooms on this floor. */
export const routeLayer: MapLayer = {
  draw({ ctx, t, opts }) {
    if (opts.route) drawRoute(ctx, t, opts.route);
  },
};
