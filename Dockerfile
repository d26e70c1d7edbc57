# One image for the API, the worker and the migration job; the command picks the process.
# The build stage, with the dev dependencies (solc-js, tsx) and the sources, is also docker
# compose's chain-deploy job: `npm run chain:deploy` compiles contracts/src when it runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The build runtime commits each step of a project build to a git workspace.
RUN apt-get update && apt-get install -y --no-install-recommends git \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /var/lib/agent-platform/workspaces && chown node /var/lib/agent-platform/workspaces
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
CMD ["node", "dist/api/main.js"]
