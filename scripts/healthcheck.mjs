// A container's health check: `node scripts/healthcheck.mjs /healthz` (the Dockerfile's liveness)
// or `/readyz` (compose's readiness). Exits 0 when the API answers 2xx, else 1 with one line.
// Plain JavaScript with no imports, so it starts fast on any Node without a TypeScript loader, and
// a file rather than an inline `node -e` string, which podman-compose 1.0.3 mangles.
const path = process.argv[2] ?? '/healthz';
const port = process.env.PORT || '8080';
// The API's HOST, unless it listens on every address: then loopback reaches it.
const host =
  process.env.HOST && !['::', '0.0.0.0'].includes(process.env.HOST) ? process.env.HOST : '127.0.0.1';
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4_000) });
  if (!response.ok) {
    console.error(
      `${url} answered ${response.status}: ${(await response.text()).replace(/\s+/g, ' ').slice(0, 200)}`,
    );
    process.exit(1);
  }
} catch (err) {
  console.error(`${url}: ${err instanceof Error ? (err.cause?.message ?? err.message) : String(err)}`);
  process.exit(1);
}
