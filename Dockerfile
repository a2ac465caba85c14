# syntax=docker/dockerfile:1
# One image for every svc process; the command picks the process (see compose.yaml,
# deploy/helm/svc and docs/operations.md):
#   node apps/api/dist/main.js          the HTTP API (default)
#   node apps/worker/dist/main.js       the asynchronous-check worker
#   node apps/cli/dist/main.js migrate  create or upgrade the database schema, then exit
#   node apps/bot-<telegram|discord|slack|whatsapp>/dist/main.js
ARG NODE_IMAGE=node:20-slim

# ---- build: every workspace compiled to dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV CI=true NX_DAEMON=false NX_NO_CLOUD=true npm_config_update_notifier=false
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
# What the runtime needs of each workspace: its package.json, dist/, data/, bin/ and the data
# files kept beside the sources (JSON under src/); no TypeScript, no tests.
RUN set -eu; mkdir -p /out; cp package.json package-lock.json /out/; \
    for d in packages/* apps/*; do \
      [ -f "$d/package.json" ] || continue; \
      mkdir -p "/out/$d"; cp "$d/package.json" "/out/$d/"; \
      for x in dist data bin; do if [ -e "$d/$x" ]; then cp -R "$d/$x" "/out/$d/"; fi; done; \
      if [ -d "$d/src" ]; then (cd "$d" && find src -type f ! -name '*.ts' ! -name '*.tsx' -exec cp --parents {} "/out/$d/" \;); fi; \
    done

# ---- runtime: production dependencies and the compiled code only ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 SVC_DATA_DIR=/var/lib/svc npm_config_update_notifier=false
WORKDIR /app
COPY --from=build /out/ ./
# No install scripts: every native piece comes as a prebuilt platform package.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && groupadd --gid 10001 svc \
 && useradd --uid 10001 --gid svc --no-create-home --home-dir /app --shell /usr/sbin/nologin svc \
 && mkdir -p /var/lib/svc && chown svc:svc /var/lib/svc
# A numeric user, so Kubernetes' runAsNonRoot can verify it.
USER 10001:10001
# 8080: the API (and the bots' webhooks); 9464: SVC_METRICS_PORT of the worker and the bots.
EXPOSE 8080 9464
# A young generation of up to 2 × 32 MB instead of V8's 2 × 16 MB: half the garbage-collection
# time under load, no change at idle (decision 0095). Every process of the image.
ENV NODE_OPTIONS="--max-semi-space-size=32"
# glibc gives memory freed at the top of its heap back to the system above 128 kB, instead of a
# threshold that one freed 9 MB buffer raises to 18 MB (idle API: 8 MB less; decision 0099).
ENV MALLOC_TRIM_THRESHOLD_=131072
ENTRYPOINT ["node"]
CMD ["apps/api/dist/main.js"]
