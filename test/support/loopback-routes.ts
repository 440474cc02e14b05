import net from 'node:net';

// The network of a drill's child process: SEEDBLOCK_TEST_ROUTES (JSON, `{"<port>": <port>}`)
// sends this process's TCP connections to one loopback port to another instead, a proxy of its
// own. Under Sentinel every process connects to the address the Sentinels name, so without this
// all of them, and the Sentinels, would share one path to a Redis: with it each process has its own
// path, which a drill can cut alone (one side of a partition). Without the variable nothing
// changes. Loaded in every child process with the loopback guard (node-args.ts).

const routes = new Map<number, number>(
  Object.entries(JSON.parse(process.env.SEEDBLOCK_TEST_ROUTES ?? '{}') as Record<string, number>).map(
    ([from, to]) => [Number(from), to],
  ),
);

type ConnectOptions = { port?: unknown; host?: unknown };

/** The options with the port routed elsewhere, or the same options. */
function routed<T extends ConnectOptions>(options: T): T {
  const to = routes.get(Number(options.port));
  const loopback = options.host === undefined || ['127.0.0.1', 'localhost'].includes(String(options.host));
  return to !== undefined && loopback ? { ...options, port: to } : options;
}

if (routes.size > 0) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const [first] = args;
    // net.connect passes [options, callback] as one array, marked as normalized: changed in place.
    if (Array.isArray(first) && typeof first[0] === 'object') first[0] = routed(first[0] as ConnectOptions);
    else if (typeof first === 'object' && first !== null) args[0] = routed(first as ConnectOptions);
    else if (typeof first === 'number') args[0] = routed({ port: first, host: args[1] }).port;
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
}
