import { describe, expect, it } from 'vitest';
import { elevatorUnder, MIN_TARGET_PX } from '../../renderer/hit-test.ts';
import type { ElevatorTarget } from '../../renderer/render-map.ts';
import type { Room } from '../../renderer/map-types.ts';

const room = {} as Room;
const icon = (sx: number, sy: number, size = 12): ElevatorTarget => ({ sx, sy, size, room, other: room });

describe('elevatorUnder', () => {
  it('answers within a 44×44 px box around a 12 px icon, and not beyond', () => {
    const e = icon(100, 100);
    const half = MIN_TARGET_PX / 2;
    expect(MIN_TARGET_PX).toBe(44);
    for (const [dx, dy] of [
      [0, 0],
      [half, 0],
      [-half, half],
      [0, -half],
    ])
      expect(elevatorUnder([e], 100 + dx!, 100 + dy!)).toBe(e);
    expect(elevatorUnder([e], 100 + half + 1, 100)).toBeUndefined();
    expect(elevatorUnder([e], 100, 100 - half - 1)).toBeUndefined();
  });

  it('keeps a larger icon its own size plus slack', () => {
    const e = icon(0, 0, 60);
    expect(elevatorUnder([e], 33, 0)).toBe(e);
    expect(elevatorUnder([e], 34, 0)).toBeUndefined();
  });

  it('picks the nearest icon where boxes overlap', () => {
    const a = icon(100, 100);
    const b = icon(130, 100);
    expect(elevatorUnder([a, b], 112, 100)).toBe(a);
    expect(elevatorUnder([a, b], 118, 100)).toBe(b);
  });
});
