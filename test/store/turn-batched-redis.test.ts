import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectRedis, redisReady, type StoreRedis } from '../../store/index.ts';

// store/turn-batched-redis.ts: the plain commands of one event-loop turn go out in one write, and
// each call still gets its own answer; a script starts no batch.

let redis: StoreRedis;
const socketOf = (r: StoreRedis) => (r as unknown as { stream: Socket }).stream;

beforeAll(async () => {
  redis = connectRedis({ url: inject('redisUrl'), name: 'turn-batch-test' });
  await redisReady(redis);
});
afterAll(() => redis.disconnect());

describe('one write per turn', () => {
  it("a turn's commands wait corked until the turn ends, then each gets its own answer", async () => {
    const key = `turnbatch:${process.pid}`;
    await redis.del(key);
    const writes = Array.from({ length: 50 }, (_, i) => redis.hset(key, `f${i}`, String(i * 7)));
    expect(socketOf(redis).writableCorked).toBe(1);
    const reads = Array.from({ length: 50 }, (_, i) => redis.hget(key, `f${i}`));
    expect(socketOf(redis).writableCorked).toBe(1);
    await Promise.all(writes);
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 50 }, (_, i) => String(i * 7)));
    expect(socketOf(redis).writableCorked).toBe(0);
  });

  it("a failing command fails alone; the turn's others are answered", async () => {
    const key = `turnbatch:str:${process.pid}`;
    await redis.set(key, 'text');
    const [bad, good] = await Promise.allSettled([redis.hget(key, 'f'), redis.get(key)]);
    expect(bad.status).toBe('rejected');
    expect(good).toEqual({ status: 'fulfilled', value: 'text' });
  });

  it('a script is written at once', async () => {
    const pending = redis.checkSeedBlock('turnbatch:', 1, '', 0);
    expect(socketOf(redis).writableCorked).toBe(0);
    await pending;
  });
});
