import type { Room } from '../../../renderer/map-types.ts';
import { targetBounds } from '../map/find-target.ts';
import type { FindTargets } from '../map/find-target.ts';
import { floorOf } from '../../../renderer/floors.ts';
import { grow } from '../../../renderer/box.ts';
import { CELL } from '../../../renderer/room-geometry.ts';
import type { ElevatorTarget } from '../../../renderer/render-map.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import {
  boundsCentre,
  clampCentre,
  clampZoom,
  fitScale,
  panBy,
  turned,
  zoomAt,
} from '../../../renderer/view-transform.ts';
import type { MapState } from '../state/url-state.ts';
import type { MapCanvas } from './map-canvas.ts';
import type { MapStore } from './map-store.ts';

// Moving the view: every change is a commit (the canvas redraws, the link follows).

/** How close "Find" zooms in on what it found, and below which it shows the whole floor. */
const FIND_MAX_ZOOM = 2.5;
const FIND_MIN_ZOOM = 1.4;
export const ZOOM_STEP = 1.4;

export interface ViewActions {
  pan(dx: number, dy: number): void;
  zoom(factor: number, sx: number, sy: number): void;
  zoomCentre(factor: number): void;
  reset(): void;
  /** The view that shows what Find found (zoomed in, or the whole floor when it is spread out). */
  viewOn(t: FindTargets, scene: FloorScene): Pick<MapState, 'cx' | 'cz' | 'zoom'>;
  takeElevator(e: ElevatorTarget): void;
  /** Pin a room's card (tap, Enter); undefined closes it. */
  pin(room: Room | undefined): void;
}

export function viewActions(store: MapStore, canvas: MapCanvas): ViewActions {
  const commitView = (v: { cx: number; cz: number; zoom: number }, url: 'none' | 'replace'): void =>
    store.commit({ state: { cx: v.cx, cz: v.cz, zoom: v.zoom } }, { url });
  return {
    pan(dx, dy) {
      const scene = store.scene();
      if (scene)
        commitView(
          panBy(clampCentre(canvas.view(), scene.bounds), scene.bounds, canvas.viewport(), dx, dy),
          'none',
        );
    },
    zoom(factor, sx, sy) {
      const scene = store.scene();
      if (!scene) return;
      commitView(
        zoomAt(clampCentre(canvas.view(), scene.bounds), scene.bounds, canvas.viewport(), factor, sx, sy),
        'none',
      );
    },
    zoomCentre(factor) {
      const scene = store.scene();
      if (!scene) return;
      const vp = canvas.viewport();
      commitView(zoomAt(canvas.view(), scene.bounds, vp, factor, vp.width / 2, vp.height / 2), 'replace');
    },
    reset() {
      store.commit({ state: { cx: undefined, cz: undefined, zoom: 1 } }, { url: 'replace' });
    },
    viewOn(t, scene) {
      const around = grow(targetBounds(t), 2 * CELL);
      const vp = canvas.viewport();
      const turn = turned(scene.bounds, vp);
      const zoom = clampZoom(
        Math.min(FIND_MAX_ZOOM, fitScale(around, vp, turn) / fitScale(scene.bounds, vp, turn)),
      );
      if (zoom < FIND_MIN_ZOOM) return { cx: undefined, cz: undefined, zoom: 1 };
      // Rounded as a link writes them, so a shared link shows exactly this view.
      const c = boundsCentre(around);
      const round = (n: number, step: number): number => Math.round(n / step) * step;
      return { cx: round(c.cx, 0.1), cz: round(c.cz, 0.1), zoom: round(zoom, 0.01) };
    },
    takeElevator(e) {
      const floor = floorOf(e.other);
      if (!floor) return;
      const zoom = Math.max(store.model.state.zoom, 1);
      // Show where the elevator arrives: its room's card stays open and the room is outlined.
      store.commit(
        { state: { floor, cx: e.other.x, cz: e.other.z, zoom }, hover: { kind: 'centre' }, pinned: e.other },
        { url: 'push' },
      );
    },
    pin(room) {
      store.commit({ pinned: room });
    },
  };
}
