/**
 * An error as a log field. discord.js attaches the request body to its errors, and replies carry
 * claim codes and keys, so only the name, message, status and route are kept, with interaction
 * tokens cut out of the URL.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const { status, method, url, code } = err as {
    status?: number;
    method?: string;
    url?: string;
    code?: unknown;
  };
  return {
    type: err.name,
    message: err.message,
    stack: err.stack,
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { discordCode: code }),
    ...(method === undefined ? {} : { method }),
    ...(url === undefined
      ? {}
      : { url: url.replace(/\/(interactions\/\d+|webhooks\/\d+)\/[^/?]+/g, '/$1/[token]') }),
  };
}
