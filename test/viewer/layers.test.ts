import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { centre } from '../../renderer/box.ts';
import { mapLayers, renderMap } from '../../renderer/render-map.ts';
import type { RenderOptions } from '../../renderer/render-map.ts';
import { buildScene } from '../../renderer/scene.ts';
import type { FloorScene } from '../../renderer/scene.ts';
import { ALL } from '../../renderer/spawn-filter.ts';
import { boundsCentre, makeTransform } from '../../renderer/view-transform.ts';
import { referenceMap } from './fixture.ts';

// Issue 36.4: each layer of a map view keeps what its last frame drew and answers its own hit
// test (no shared result of the frame); a frame that draws a layer's things again replaces them.
// Drawn for real, with the Canvas 2D the link preview uses.

const VP = { width: 1280, height: 800 };
const ALL_ON = { doors: true, teslas: true, structures: true, items: true };

function draw(scene: FloorScene, layers = mapLayers(), opts: Partial<RenderOptions> = {}) {
  const g = createCanvas(VP.width, VP.height).getContext('2d') as unknown as CanvasRenderingContext2D;
  const t = makeTransform({ ...boundsCentre(scene.bounds), zoom: 2 }, scene.bounds, VP);
  const symbols = renderMap(
    g,
    scene,
    t,
    VP,
    {
      layers: ALL_ON,
      itemFilter: ALL,
      structureFilter: ALL,
      ...opts,
    },
    layers,
  );
  return { layers, t, symbols };
}

const onScreen = ({ sx, sy }: { sx: number; sy: number }) =>
  sx > 20 && sy > 20 && sx < VP.width - 20 && sy < VP.height - 20;

describe('map layers', () => {
  const lcz = buildScene(referenceMap, 'lcz');

  it('the doors layer names the door drawn at a point, and nothing where none is', () => {
    const { layers, t } = draw(lcz);
    const door = lcz.doors.find((d) => onScreen(t.toScreen(d.x, d.z)))!;
    const at = t.toScreen(door.x, door.z);
    expect(layers.doors.doorAt(at.sx + 3, at.sy)).toBe(door);
    expect(layers.doors.drawn()).toBe(lcz.doors.length);
    expect(layers.doors.doorAt(-100, -100)).toBeUndefined();
  });

  it('the spawns layer names the spawn drawn at a point; a frame without the layer forgets them', () => {
    const { layers, t } = draw(lcz);
    const spawn = lcz.spawns.find((s) => onScreen(t.toScreen(s.x, s.z)))!;
    const at = t.toScreen(spawn.x, spawn.z);
    // The one drawn there (several spawns may share a point).
    const found = layers.spawns.spawnAt(at.sx, at.sy)!;
    const p = t.toScreen(found.x, found.z);
    expect(Math.hypot(p.sx - at.sx, p.sy - at.sy)).toBeLessThan(0.5);
    expect(layers.spawns.drawn()).toBeGreaterThan(0);
    draw(lcz, layers, { layers: { ...ALL_ON, items: false, structures: false } });
    expect(layers.spawns.drawn()).toBe(0);
    expect(layers.spawns.spawnAt(at.sx, at.sy)).toBeUndefined();
  });

  it('the labels layer names the room of a label, and the elevators layer the elevator under a finger', () => {
    const { layers, symbols } = draw(lcz);
    const label = layers.labels.marks().find((l) => l.room)!;
    const c = centre(label.box);
    expect(layers.labels.roomAt(c.x, c.y)).toBe(label.room);
    expect(layers.labels.drawn()).toBe(layers.labels.marks().length);
    const icon = symbols.find((s) => s.kind === 'elevator')!;
    const e = centre(icon.box);
    expect(layers.elevators.elevatorAt(e.x + 15, e.y)?.room.zone).toBe('LightContainment');
  });

  it('two views keep their own marks', () => {
    const a = draw(lcz);
    const b = draw(buildScene(referenceMap, 'hcz'));
    expect(a.layers.doors.drawn()).toBe(lcz.doors.length);
    expect(b.layers.doors.drawn()).not.toBe(lcz.doors.length);
  });
});
