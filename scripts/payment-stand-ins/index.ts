import { startCryptoBotStandIn, type CryptoBotStandIn } from './cryptobot';
import { startPlategaStandIn, type PlategaStandIn } from './platega';

export type { CryptoBotStandIn } from './cryptobot';
export type { PlategaStandIn } from './platega';
export { startCryptoBotStandIn, startPlategaStandIn };

/**
 * Both payment provider stand-ins, for tests and as an opt-in in `npm run dev`: the returned
 * `env` points the service at them (CRYPTOBOT_API_URL/_TOKEN, PLATEGA_API_URL/_MERCHANT_ID/
 * _SECRET). Run alone (`tsx scripts/payment-stand-ins/index.ts`) it prints those variables and
 * serves until interrupted.
 */

export interface PaymentStandInsOptions {
  host?: string;
  /** 0 (default): any free port. */
  cryptobotPort?: number;
  plategaPort?: number;
  /** Where each provider POSTs its callbacks (the service's callback routes); null: none. */
  callbackUrls?: { cryptobot?: string | null; platega?: string | null };
  /** Fixed credentials (stable across dev restarts); default random. */
  cryptobotToken?: string;
  plategaMerchantId?: string;
  plategaSecret?: string;
}

export interface PaymentStandIns {
  cryptobot: CryptoBotStandIn;
  platega: PlategaStandIn;
  env: Record<
    | 'CRYPTOBOT_API_URL'
    | 'CRYPTOBOT_API_TOKEN'
    | 'PLATEGA_API_URL'
    | 'PLATEGA_MERCHANT_ID'
    | 'PLATEGA_SECRET',
    string
  >;
  close(): Promise<void>;
}

export async function startPaymentStandIns(
  options: PaymentStandInsOptions = {},
): Promise<PaymentStandIns> {
  const host = options.host ?? '127.0.0.1';
  const cryptobot = await startCryptoBotStandIn({
    host,
    port: options.cryptobotPort ?? 0,
    callbackUrl: options.callbackUrls?.cryptobot ?? null,
    ...(options.cryptobotToken ? { token: options.cryptobotToken } : {}),
  });
  let platega: PlategaStandIn;
  try {
    platega = await startPlategaStandIn({
      host,
      port: options.plategaPort ?? 0,
      callbackUrl: options.callbackUrls?.platega ?? null,
      ...(options.plategaMerchantId ? { merchantId: options.plategaMerchantId } : {}),
      ...(options.plategaSecret ? { secret: options.plategaSecret } : {}),
    });
  } catch (error) {
    await cryptobot.close();
    throw error;
  }
  return {
    cryptobot,
    platega,
    env: {
      CRYPTOBOT_API_URL: cryptobot.apiUrl,
      CRYPTOBOT_API_TOKEN: cryptobot.token,
      PLATEGA_API_URL: platega.url,
      PLATEGA_MERCHANT_ID: platega.merchantId,
      PLATEGA_SECRET: platega.secret,
    },
    close: async () => {
      await Promise.all([cryptobot.close(), platega.close()]);
    },
  };
}

async function main(): Promise<void> {
  const env = process.env;
  const standIns = await startPaymentStandIns({
    cryptobotPort: Number(env.DEV_CRYPTOBOT_PORT ?? 8701),
    plategaPort: Number(env.DEV_PLATEGA_PORT ?? 8702),
    callbackUrls: {
      cryptobot: env.CRYPTOBOT_CALLBACK_URL ?? null,
      platega: env.PLATEGA_CALLBACK_URL ?? null,
    },
    ...(env.CRYPTOBOT_API_TOKEN ? { cryptobotToken: env.CRYPTOBOT_API_TOKEN } : {}),
    ...(env.PLATEGA_MERCHANT_ID ? { plategaMerchantId: env.PLATEGA_MERCHANT_ID } : {}),
    ...(env.PLATEGA_SECRET ? { plategaSecret: env.PLATEGA_SECRET } : {}),
  });
  for (const [name, value] of Object.entries(standIns.env)) console.log(`${name}=${value}`);
  const stop = () => void standIns.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
