import type { BuildProject } from '../brain';
import {
  commandOutput,
  commit,
  jsString,
  mdLine,
  packageJson,
  runCommand,
  sentencesOf,
  writeFile,
  type TemplatePlanner,
} from './common';

/** `bot-builder`: a chat bot's command handler (pure function, any transport) with its test. */
export const botPlanner: TemplatePlanner = {
  steps: (project) => [
    `Scaffold the bot package for "${mdLine(project.title)}"`,
    'Write the command handler (/start, /help, /about, /echo)',
    'Test the commands and run the tests',
    'Report the result',
  ],
  turns: [
    (project) => ({
      text: `Setting up the "${mdLine(project.title)}" bot package.`,
      calls: [
        writeFile('package.json', packageJson(project, { test: 'node test.js' })),
        writeFile('README.md', readme(project)),
        commit('Scaffold bot package'),
      ],
    }),
    (project) => ({
      text: 'Writing the command handler: a pure function from message text to reply.',
      calls: [writeFile('src/bot.js', botModule(project)), commit('Add command handler')],
    }),
    () => ({
      text: 'Testing every command, then running the tests.',
      calls: [
        writeFile('test.js', TEST_JS),
        runCommand('node', 'test.js'),
        commit('Add command tests'),
      ],
    }),
    (project, journal) => ({
      text: `The "${mdLine(project.title)}" bot is ready. Tests: ${commandOutput(journal, 3) ?? 'no output recorded'}.`,
      calls: [],
    }),
  ],
};

function readme(project: BuildProject): string {
  return `# ${mdLine(project.title)} (bot)

${project.brief.trim()}

\`src/bot.js\` exports \`handle(text)\`, which answers one incoming message. Plug it into any
messaging transport (Matrix, Telegram, Discord): call it per message and send the reply back.

Commands: \`/start\`, \`/help\`, \`/about\`, \`/echo <text>\`.

\`\`\`sh
npm test
\`\`\`
`;
}

function botModule(project: BuildProject): string {
  return `'use strict';

const NAME = ${jsString(mdLine(project.title))};
const ABOUT = ${jsString(sentencesOf(project.brief, 2).join(' '))};

const commands = {
  start: () => 'Hi! I am ' + NAME + '. Send /help to see what I can do.',
  help: () => ['/start - greeting', '/help - this list', '/about - what this bot is for', '/echo <text> - repeat text'].join('\\n'),
  about: () => ABOUT,
  echo: (text) => text || 'Nothing to echo: send /echo followed by some text.',
};

/** Answers one message: a command (optionally addressed as /command@botname) or plain text. */
function handle(message) {
  const text = String(message ?? '').trim();
  const match = /^\\/([a-z]+)(?:@\\w+)?(?:\\s+([\\s\\S]*))?$/i.exec(text);
  if (!match) return 'I answer commands. ' + commands.help();
  const name = match[1].toLowerCase();
  if (!Object.hasOwn(commands, name)) return 'Unknown command /' + name + '. Try /help.';
  return commands[name]((match[2] || '').trim());
}

module.exports = { handle, NAME };
`;
}

const TEST_JS = `'use strict';
const assert = require('node:assert/strict');
const { handle, NAME } = require('./src/bot.js');

const checks = [
  () => assert.ok(handle('/start').includes(NAME)),
  () => assert.match(handle('/help'), /\\/echo/),
  () => assert.ok(handle('/about').length > 0),
  () => assert.equal(handle('/echo hello there'), 'hello there'),
  () => assert.equal(handle('/echo@somebot hi'), 'hi'),
  () => assert.match(handle('/constructor'), /Unknown command/),
  () => assert.match(handle('just text'), /I answer commands/),
];
let passed = 0;
for (const check of checks) {
  check();
  passed += 1;
}
console.log(passed + ' of ' + checks.length + ' checks passed');
`;
