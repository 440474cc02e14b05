# seedblock: one image for the API, the generator and the chat bot (the command picks which).
# Build: docker build -t seedblock .   Run: see compose.yaml, or deploy/systemd/ without Docker.

# Build stage: every dependency (esbuild builds the viewer), then only the runtime ones kept.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:viewer && npm prune --omit=dev

# Runtime stage: sources run through tsx (a runtime dependency), the viewer already built.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080
WORKDIR /app
# Owned by root and read-only to the process: it never writes inside the app.
COPY --from=build /app /app
# The image's unprivileged user (uid 1000); Redis runs elsewhere (REDIS_URL), so no DATA_DIR here.
USER node
EXPOSE 8080
# Liveness only: readiness (/readyz) belongs to the orchestrator (see compose.yaml). The generator
# and the bot answer no HTTP: their containers disable this check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: SIGTERM reaches the process, which stops within its grace.
CMD ["node", "--import", "tsx", "api/main.ts"]
