/** Where a `redis-sentinel://` REDIS_URL points: Sentinels, and the name of the master they watch. */
export interface SentinelTarget {
  sentinels: { host: string; port: number }[];
  /** The master's name in the Sentinels' `sentinel monitor` line. */
  name: string;
  username?: string;
  /** The master's password (not the Sentinels'). */
  password?: string;
  db: number;
}

const SENTINEL_URL = /^redis-sentinel:\/\/(?:([^@/#]*)@)?([^/#]+)(?:\/(\d+))?#(.+)$/;
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/;
const SENTINEL_PORT = 26379;

/**
 * Reads a REDIS_URL of the form `redis-sentinel://[[user]:password@]host[:port][,host[:port]...]
 * [/db]#master` (the form Lettuce and others use); null when the URL is not of that form. Every
 * process asks the Sentinels where the master is, and again after a failover.
 */
export function parseSentinelUrl(url: string): SentinelTarget | null {
  const m = SENTINEL_URL.exec(url);
  if (!m) return null;
  const [, auth, hosts, db, name] = m;
  const sentinels: SentinelTarget['sentinels'] = [];
  for (const entry of hosts!.split(',')) {
    const h = HOST.exec(entry.trim());
    const port = Number(h?.[3] ?? SENTINEL_PORT);
    if (!h || port < 1 || port > 65535) return null;
    sentinels.push({ host: h[1] ?? h[2]!, port });
  }
  const target: SentinelTarget = { sentinels, name: decodeURIComponent(name!), db: Number(db ?? 0) };
  if (auth) {
    const colon = auth.indexOf(':');
    const user = colon === -1 ? '' : auth.slice(0, colon);
    if (user) target.username = decodeURIComponent(user);
    target.password = decodeURIComponent(colon === -1 ? auth : auth.slice(colon + 1));
  }
  return target;
}

/**
 * A REDIS_URL fit for a log line: the address stays, so a mistyped host or port shows, and the
 * password (everything after the user name, or the whole userinfo without one) is `***`.
 */
export function redactRedisUrl(url: string): string {
  return url.replace(/^([a-z-]+:\/\/)([^@/#]*)@/, (_, scheme: string, auth: string) => {
    const colon = auth.indexOf(':');
    return `${scheme}${colon === -1 ? '' : auth.slice(0, colon + 1)}***@`;
  });
}
