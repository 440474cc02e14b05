# seedblock: one image for the API, the generator and the chat bot (the command picks which).
# Build: docker build -t seedblock .  (podman: podman build --format docker -t seedblock ., or the
# HEALTHCHECK is dropped). Run: see compose.yaml, or deploy/systemd/ without Docker.
# The build context is .dockerignore's allowlist: no .env, .data/, backups, .npmrc or keys reach it.

# Build stage: every dependency (esbuild builds the viewer).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:viewer

# Runtime dependencies only. Node 24 runs the TypeScript itself (erasable syntax, tsconfig's
# erasableSyntaxOnly), so tsx, kept in package.json for Node 20, is removed with its esbuild.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm uninstall --no-save --omit=dev --no-audit --no-fund tsx

# Fonts for the words of the link preview (og:image): @napi-rs/canvas reads /usr/share/fonts, and the
# slim image has none, so the picture had no caption and no room names.
FROM node:24-bookworm-slim AS fonts
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*

# Runtime stage: only what runs. No tests, bench, docs or viewer sources (the map renderer the
# link preview shares with the viewer is its own folder, renderer/).
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080
WORKDIR /app
# Owned by root and read-only to the process: it never writes inside the app.
COPY --from=deps /app/node_modules node_modules
COPY package.json ./
COPY api api
COPY bot bot
COPY generator generator
COPY net net
COPY renderer renderer
COPY runtime runtime
COPY scripts scripts
COPY store store
COPY viewer/dist-dir.ts viewer/index-html.ts viewer/precompress.ts viewer/favicon.svg viewer/
COPY --from=build /app/viewer/dist viewer/dist
COPY --from=fonts /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/dejavu
# The image's unprivileged user (uid 1000); Redis runs elsewhere (REDIS_URL), so no DATA_DIR here.
USER node
EXPOSE 8080
# Liveness only: readiness (/readyz) belongs to the orchestrator (see compose.yaml). The generator
# and the bot answer no HTTP: their containers disable this check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "scripts/healthcheck.mjs", "/healthz"]
# node itself, not npm: SIGTERM reaches the process, which stops within 8 s (engines allow 10 s).
CMD ["node", "api/main.ts"]
