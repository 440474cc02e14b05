import type { Door, Room, Spawn } from '../map-types.ts';
import type { Box } from '../box.ts';
import type { FloorScene } from '../scene.ts';
import type { Transform, Viewport } from '../view-transform.ts';

// A map layer draws one kind of thing on a frame, hands the layers above it what they need (the
// symbol boxes labels keep clear of, captions, what goes on top), and keeps what it drew until its
// next frame: how many, and where on screen, so it answers its own hit test. renderMap runs the
// layers in order (Leaflet's renderer and its layers: each layer knows how to draw itself and what
// it shows, the renderer owns the redraw).

export type Ctx = CanvasRenderingContext2D;

export interface Layers {
  doors: boolean;
  teslas: boolean;
  structures: boolean;
  items: boolean;
}

export interface RenderOptions {
  layers: Layers;
  itemFilter: string;
  structureFilter: string;
  hover?: Room | undefined;
  /** What the player found with the search: outlined rooms, spawns shown as matches. */
  selection?: { rooms: readonly Room[]; spawns: readonly Spawn[] } | undefined;
  /** The route's runs of rooms on this floor. */
  route?: readonly (readonly Room[])[] | undefined;
  /** Screen boxes over the map (the zoom buttons) that no label may slide under. */
  avoid?: readonly Box[];
}

/** Elevator icon on screen; clicking it moves to the room at the other end. */
export interface ElevatorTarget {
  sx: number;
  sy: number;
  size: number;
  room: Room;
  other: Room;
}

/** A drawn door, kept for its layer's hit test. */
export interface DoorMark {
  sx: number;
  sy: number;
  door: Door;
}

/** A drawn spawn point, kept for its layer's hit test. */
export interface SpawnMark {
  sx: number;
  sy: number;
  spawn: Spawn;
}

/** A label drawn on the map; `room` is what hovering it describes. */
export interface LabelMark {
  text: string;
  box: Box;
  room: Room | undefined;
}

/** A drawn symbol's screen box: what labels keep clear of. */
export interface SymbolMark {
  kind: 'door' | 'tesla' | 'elevator' | 'spawn' | 'link' | 'place' | 'compass';
  box: Box;
}

/** A text placed with the room labels (an elevator's "to LCZ", a place's name). */
export interface Caption {
  text: string;
  sx: number;
  sy: number;
  size: number;
  /** Below the symbol only (open areas), rather than on any side. */
  below: boolean;
}

/** One frame being drawn: what every layer reads, and what a layer hands to those above it. */
export interface Frame {
  ctx: Ctx;
  scene: FloorScene;
  t: Transform;
  vp: Viewport;
  opts: RenderOptions;
  /** Screen boxes of the symbols drawn so far: what labels keep clear of. */
  symbols: SymbolMark[];
  /** Texts the labels layer places beside symbols. */
  captions: Caption[];
  /** Drawn after the labels: what the reader looks for (matches, found spawns). */
  onTop: (() => void)[];
}

export interface MapLayer {
  draw(f: Frame): void;
}

/** A layer that keeps what its last frame drew: how many things (the page's test hooks count them). */
export interface CountingLayer extends MapLayer {
  drawn(): number;
}
