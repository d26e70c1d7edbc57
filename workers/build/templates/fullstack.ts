import type { BuildProject } from '../brain';
import {
  commandOutput,
  commit,
  escapeHtml,
  jsString,
  mdLine,
  packageJson,
  runCommand,
  sentencesOf,
  writeFile,
  type TemplatePlanner,
} from './common';

/** `fullstack-builder`: a dependency-free Node web app (HTTP server, page, JSON API) with a test. */
export const fullstackPlanner: TemplatePlanner = {
  steps: (project) => [
    `Scaffold the package and README for "${mdLine(project.title)}"`,
    'Build the HTTP server with a JSON API and the landing page',
    'Write an end-to-end test and run it',
    'Report the result',
  ],
  turns: [
    (project) => ({
      text: `Setting up "${mdLine(project.title)}": package manifest and README.`,
      calls: [
        writeFile(
          'package.json',
          packageJson(project, { start: 'node src/server.js', test: 'node test.js' }),
        ),
        writeFile('README.md', readme(project)),
        commit('Scaffold package and README'),
      ],
    }),
    (project) => ({
      text: 'Adding the HTTP server (JSON API + static page) and the landing page.',
      calls: [
        writeFile('src/server.js', serverModule(project)),
        writeFile('public/index.html', indexHtml(project)),
        commit('Add HTTP server and landing page'),
      ],
    }),
    () => ({
      text: 'Writing an end-to-end test that starts the server on a free port, then running it.',
      calls: [
        writeFile('test.js', TEST_JS),
        runCommand('node', 'test.js'),
        commit('Add end-to-end test'),
      ],
    }),
    (project, journal) => ({
      text:
        `"${mdLine(project.title)}" is ready: \`npm start\` serves it, \`npm test\` checks it. ` +
        `Test run: ${commandOutput(journal, 3) ?? 'no output recorded'}.`,
      calls: [],
    }),
  ],
};

function readme(project: BuildProject): string {
  return `# ${mdLine(project.title)}

${project.brief.trim()}

## Run

\`\`\`sh
npm start        # http://localhost:3000 (PORT to change)
npm test         # end-to-end test, no dependencies needed
\`\`\`

## API

- \`GET /api/health\` → \`{"ok":true,"title":...}\`
- \`GET /api/about\` → the title and the brief
`;
}

function serverModule(project: BuildProject): string {
  return `'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const TITLE = ${jsString(mdLine(project.title))};
const BRIEF = ${jsString(project.brief.trim())};
const INDEX = path.join(__dirname, '..', 'public', 'index.html');

function send(response, status, type, body) {
  response.writeHead(status, { 'content-type': type });
  response.end(body);
}

function handle(request, response) {
  const url = new URL(request.url, 'http://localhost');
  if (request.method !== 'GET') return send(response, 405, 'application/json', '{"error":"method_not_allowed"}');
  if (url.pathname === '/api/health') {
    return send(response, 200, 'application/json', JSON.stringify({ ok: true, title: TITLE }));
  }
  if (url.pathname === '/api/about') {
    return send(response, 200, 'application/json', JSON.stringify({ title: TITLE, brief: BRIEF }));
  }
  if (url.pathname === '/' || url.pathname === '/index.html') {
    return send(response, 200, 'text/html; charset=utf-8', fs.readFileSync(INDEX, 'utf8'));
  }
  return send(response, 404, 'application/json', '{"error":"not_found"}');
}

function createServer() {
  return http.createServer(handle);
}

module.exports = { createServer, handle, TITLE };

if (require.main === module) {
  const port = Number(process.env.PORT || 3000);
  createServer().listen(port, () => console.log(TITLE + ' on http://localhost:' + port));
}
`;
}

function indexHtml(project: BuildProject): string {
  const points = sentencesOf(project.brief)
    .map((sentence) => `      <li>${escapeHtml(sentence)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(mdLine(project.title))}</title>
  </head>
  <body>
    <h1>${escapeHtml(mdLine(project.title))}</h1>
    <ul>
${points}
    </ul>
    <p id="status">Checking the API…</p>
    <script>
      fetch('/api/health')
        .then((response) => response.json())
        .then((health) => {
          document.getElementById('status').textContent = health.ok ? 'API is up.' : 'API is down.';
        });
    </script>
  </body>
</html>
`;
}

const TEST_JS = `'use strict';
const assert = require('node:assert/strict');
const { createServer, TITLE } = require('./src/server.js');

const server = createServer();
server.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  try {
    const health = await fetch(base + '/api/health');
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true, title: TITLE });
    const page = await fetch(base + '/');
    assert.match(await page.text(), /<h1>/);
    const missing = await fetch(base + '/nope');
    assert.equal(missing.status, 404);
    console.log('3 of 3 checks passed');
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    server.close();
  }
});
`;
