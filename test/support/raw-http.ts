import { connect, type Socket } from 'node:net';

// One HTTP/1.1 connection by hand, over loopback: requests written exactly as given on the same
// socket (keep-alive), from any address of 127.0.0.0/8 (`localAddress`), so a test controls what
// the server sees: the peer address, the Host, and how long the connection idles between requests.

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  /** Writes `head` (a request line and headers; the blank line is added) and reads its answer. */
  request(head: string): Promise<RawAnswer>;
  /** Whether the server has closed (or reset) the connection. */
  readonly closed: boolean;
  /** Resolves once the connection is closed, by either side. */
  readonly ended: Promise<void>;
  destroy(): void;
}

/** Opens a connection to 127.0.0.1:`port` from `localAddress`; resolves once it is established. */
export function rawConnection(port: number, localAddress = '127.0.0.1'): Promise<RawConnection> {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  });
  socket.on('error', () => {}); // a reset is the server closing it
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void ended.then(() => waiting?.());

  /** The first answer in `buffered`, taken off it, or null while it is incomplete. */
  function takeAnswer(head: boolean): RawAnswer | null {
    const end = buffered.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine!.split(' ')[1]);
    const bodyless = head || status === 204 || status === 304;
    if (!bodyless && headers['content-length'] === undefined) {
      throw new Error(`an answer without Content-Length: ${statusLine}`);
    }
    const length = bodyless ? 0 : Number(headers['content-length']);
    if (buffered.length < end + 4 + length) return null;
    const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
    buffered = buffered.subarray(end + 4 + length);
    return { status, headers, body };
  }

  const connection: RawConnection = {
    request(head) {
      return new Promise((resolve, reject) => {
        waiting = () => {
          try {
            const answer = takeAnswer(head.startsWith('HEAD '));
            if (answer) {
              waiting = null;
              resolve(answer);
            } else if (socket.closed) {
              waiting = null;
              reject(new Error(`connection closed before the answer to ${head.split('\r\n')[0]}`));
            }
          } catch (err) {
            waiting = null;
            reject(err as Error);
          }
        };
        socket.write(`${head.replace(/(\r\n)*$/, '')}\r\n\r\n`);
      });
    },
    get closed() {
      return socket.closed;
    },
    ended,
    destroy: () => socket.destroy(),
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(connection));
    socket.once('error', reject);
  });
}
