import type { Redis } from 'ioredis';

// The connections a Redis server sees (CLIENT LIST), to tell apart processes that share one
// connection name: each connection has an id that grows in the order connections were made, and
// its flags say whether it is blocked in a command like BLMOVE ("b").

export interface RedisClient {
  id: number;
  name: string;
  flags: string;
  /** The last command it ran (or is running). */
  cmd: string;
}

export async function clientList(redis: Redis): Promise<RedisClient[]> {
  const text = (await redis.client('LIST')) as string;
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = new Map(
        line
          .trim()
          .split(' ')
          .map((pair) => {
            const eq = pair.indexOf('=');
            return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
          }),
      );
      return {
        id: Number(fields.get('id')),
        name: fields.get('name') ?? '',
        flags: fields.get('flags') ?? '',
        cmd: fields.get('cmd') ?? '',
      };
    });
}

/** Connections named `name`, oldest first. */
export async function clientsNamed(redis: Redis, name: string): Promise<RedisClient[]> {
  return (await clientList(redis)).filter((c) => c.name === name).sort((x, y) => x.id - y.id);
}

/** INFO memory's used_memory: every byte Redis has allocated. */
export async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))![1]);
}
