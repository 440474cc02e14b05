import proxyaddr from 'proxy-addr';

/** Whether the peer at `addr`, `hop` proxies away from us, is a proxy whose forwarded headers we believe. */
export type TrustProxy = (addr: string, hop: number) => boolean;

/**
 * `TRUST_PROXY` compiled once, the way express compiles `trust proxy`. The front door (node's
 * request, before express) and the express app both judge forwarded headers by this one function.
 */
export function compileTrustProxy(setting: boolean | number | string): TrustProxy {
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_addr, hop) => hop < setting;
  return proxyaddr.compile(setting === false ? [] : setting.split(',').map((entry) => entry.trim()));
}
