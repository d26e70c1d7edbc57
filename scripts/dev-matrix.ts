import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerSynapseUser, startSynapse, synapsePython } from './synapse';

/**
 * `DEV_MATRIX=true npm run dev`: a Synapse homeserver on loopback for the bot gateway, Matrix
 * login and notifications (state in `.data/synapse`; the first start installs Synapse into
 * `.data/synapse-venv` unless SYNAPSE_PYTHON names an interpreter that has it). The bot is
 * the user `@bot:localhost`, registered once; its token is kept beside the database.
 */
export interface DevMatrix {
  url: string;
  botUserId: string;
  /** MATRIX_* settings pointing the API and worker at it. */
  env: Record<string, string>;
  /** A development `X-Service-Bot-Token` (made once, kept in `.data/synapse/bot.json`). */
  gatewayToken: string;
  stop: () => Promise<void>;
}

export async function startDevMatrix(dataDir: string, port: number): Promise<DevMatrix> {
  const dir = join(dataDir, 'synapse');
  const synapse = await startSynapse({ dir, port, python: await synapsePython(dataDir) });
  const botFile = join(dir, 'bot.json');
  let bot: { userId: string; accessToken: string; gatewayToken: string };
  try {
    if (existsSync(botFile)) {
      bot = JSON.parse(readFileSync(botFile, 'utf8')) as typeof bot;
    } else {
      const gatewayToken = `dev-bot-${randomBytes(16).toString('hex')}`;
      bot = { ...(await registerSynapseUser(synapse, 'bot')), gatewayToken };
      writeFileSync(botFile, JSON.stringify(bot), { mode: 0o600 });
    }
  } catch (error) {
    await synapse.stop();
    throw new Error(
      `the development bot could not be registered (${(error as Error).message}); ` +
        `remove ${dir} to start the homeserver afresh`,
    );
  }
  return {
    url: synapse.url,
    botUserId: bot.userId,
    gatewayToken: bot.gatewayToken,
    env: {
      MATRIX_HOMESERVER_URL: synapse.url,
      MATRIX_ACCESS_TOKEN: bot.accessToken,
      MATRIX_LOGIN_HOMESERVERS: `${synapse.serverName}=${synapse.url}`,
    },
    stop: () => synapse.stop(),
  };
}
