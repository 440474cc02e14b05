// The generator's own data against the reference files it was made from.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EZ_TEMPLATES, HCZ_TEMPLATES, LCZ_TEMPLATES } from '../../generator/data/room-templates.ts';
import { deriveFeatureTables, type MapDump } from '../../generator/derive-features.ts';
import { LAYOUTS } from '../../generator/layouts.ts';
import { ADJACENCY_TEXT, roomCatalogue, templateOrder } from './facility-md.ts';
import { REPO_ROOT } from '../support/repo.ts';
import { DUMP_FILE, readReference, readReferenceJson } from './reference-files.ts';

const generatorDir = path.join(REPO_ROOT, 'generator');

describe('generator data', () => {
  it('keeps a verbatim copy of layouts.tsv', () => {
    expect(readFileSync(path.join(generatorDir, 'data/layouts.tsv'), 'utf8')).toBe(
      readReference('layouts.tsv'),
    );
  });

  it('parses 5 LCZ, 10 HCZ and 5 EZ layouts with the cell counts of facility.md', () => {
    expect([LAYOUTS.L.length, LAYOUTS.H.length, LAYOUTS.E.length]).toEqual([5, 10, 5]);
    const md = readReference('facility.md');
    for (const [zone, key] of [
      ['LCZ', 'L'],
      ['HCZ', 'H'],
      ['EZ', 'E'],
    ] as const) {
      LAYOUTS[key].forEach((layout, i) => {
        const row = new RegExp(`^\\| ${zone} \\| ${i} \\| \\w+ \\| (\\d+) \\|`, 'm').exec(md);
        expect(row, `${zone} ${i}`).not.toBeNull();
        expect(layout.cells.length, `${zone} ${i}`).toBe(Number(row![1]));
      });
    }
  });

  it('has the room catalogue of facility.md (name, shape, min, max, weight) in the section 8 order', () => {
    const catalogue = roomCatalogue();
    const order = templateOrder();
    const ours = { LCZ: LCZ_TEMPLATES, HCZ: HCZ_TEMPLATES, EZ: EZ_TEMPLATES };
    for (const zone of ['LCZ', 'HCZ', 'EZ'] as const) {
      expect(
        ours[zone].map((t) => t.prefab),
        zone,
      ).toEqual(order[zone]);
      for (const t of ours[zone]) {
        const row = catalogue.get(t.prefab);
        expect(row, t.prefab).toBeDefined();
        expect({ name: t.name, shape: t.shape, min: t.min, max: t.max, weight: t.chance }, t.prefab).toEqual({
          name: row!.name,
          shape: row!.shape,
          min: row!.min,
          max: row!.max,
          weight: row!.weight,
        });
      }
    }
    expect(catalogue.size).toBe(LCZ_TEMPLATES.length + HCZ_TEMPLATES.length + EZ_TEMPLATES.length);
  });

  it('uses the adjacency multipliers of facility.md', () => {
    expect(ADJACENCY_TEXT).toContain('HCZ_Tesla_Rework whose multiplier is 0');
    for (const t of [...LCZ_TEMPLATES, ...HCZ_TEMPLATES, ...EZ_TEMPLATES]) {
      expect(t.adjacency, t.prefab).toBe(t.prefab === 'HCZ_Tesla_Rework' ? 0 : 0.1);
    }
  });

  it('ships prefab-features.json exactly as derive-tables makes it from the dump', () => {
    const committed = JSON.parse(readFileSync(path.join(generatorDir, 'data/prefab-features.json'), 'utf8'));
    expect(committed).toEqual(deriveFeatureTables(readReferenceJson<MapDump>(DUMP_FILE)));
  });

  it('does not read ../shared at run time (only derive-tables, a dev tool, defaults to it)', () => {
    for (const file of readdirSync(generatorDir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file === 'derive-tables.ts') continue;
      expect(readFileSync(path.join(generatorDir, file), 'utf8'), file).not.toMatch(
        /shared\/reference|\.\.\/\.\.\/shared/,
      );
    }
  });
});
