# docjoin's demo server as a production image: compiled JavaScript only (no tsx, no TypeScript at run
# time), the package installed from its own tarball as a user would (its dependencies locked),
# NODE_ENV=production.
#
#   docker build -t docjoin-demo .
#   docker run --rm -p 4000:4000 docjoin-demo                                  # embedded MongoDB, demo seed
#   docker run --rm -p 4000:4000 -e MONGODB_URI=mongodb://db:27017 docjoin-demo   # your MongoDB
#
# SIGTERM (docker stop) drains the requests in flight (DOCJOIN_SHUTDOWN_GRACE_MS), then exits: give
# docker stop time for the drain and the grace (docker run --stop-timeout 15; its default is 10 s).
# test/package/dockerfile.test.ts runs these steps outside Docker.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build && npm run build:demo
RUN mkdir -p /out && npm pack --pack-destination /out

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# docjoin's dependencies and peers at the repository lockfile's versions (docker/runtime), then the
# package's own tarball, which finds each of them already there.
COPY docker/runtime/ ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY --from=build /out /tmp/docjoin
RUN npm install --no-save --omit=dev --no-audit --no-fund /tmp/docjoin/docjoin-*.tgz && rm -rf /tmp/docjoin
COPY --from=build /src/build/demo /app
EXPOSE 4000
USER node
# /health answers 503 while MongoDB is unreachable or the server drains; the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "node_modules/docjoin/dist/cli/bin/docjoin.js", "serve"]
