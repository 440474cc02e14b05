// Shapes of the read API bodies the viewer uses (spec parts 2.4-2.8).

export type Zone = 'LightContainment' | 'HeavyContainment' | 'Entrance' | 'Surface' | 'Other';
export type Shape = 'Straight' | 'Curve' | 'TShape' | 'XShape' | 'Endroom' | 'Undefined';

export interface Conn {
  x: number;
  z: number;
  /** Present only when the neighbour is on another floor. */
  y?: number;
  zone?: Zone;
}

export interface Room {
  name: string;
  zone: Zone;
  shape: Shape;
  x: number;
  y: number;
  z: number;
  rotY: number;
  variant: string | null;
  conn: Conn[];
}

export interface Spawn {
  kind: 'structure' | 'item';
  cat: string;
  x: number;
  y: number;
  z: number;
  rx: number;
  rz: number;
}

export interface Door {
  name: string;
  zone: Zone;
  x: number;
  y: number;
  z: number;
  rotY: number;
  checkpoint: boolean;
}

export interface Tesla {
  x: number;
  y: number;
  z: number;
  rx: number;
  rz: number;
}

export interface MapData {
  seed: number;
  rooms: Room[];
  spawns: Spawn[];
  doors: Door[];
  teslas: Tesla[];
  /** Layout template number (from 1) each zone was built from; absent from older maps. */
  layouts: Partial<Record<Zone, number>>;
}

export type JobStatus = 'queued' | 'running' | 'ready' | 'error';

export interface Job {
  seed: number;
  status: JobStatus;
  ahead?: number;
  error?: string;
}

export interface SeedItem {
  seed: number;
  roomCount: number;
  spawns: number;
  markers: number;
  dumped: boolean;
  detected: boolean;
}

export interface SeedPage {
  items: SeedItem[];
  total: number;
  nextCursor: number | null;
}

export interface Overview {
  seedsTracked: number;
  seedsDumped: number;
  seedsDetected: number;
  requestsTotal: number;
  detections: { '24h': number; '7d': number };
  uptimeSec: number;
}

export interface ProtectionWindow {
  seed: number;
  at: string;
  endedAt: string;
  viewAttempts: number;
  keyKind?: string;
}

export interface Protection {
  seeds: number;
  windows: number;
  viewAttemptsBlocked: number;
  recent: ProtectionWindow[];
}
