import type { PaymentsConfig } from '../config';
import type { OutboundClient } from '../net/outbound-client';
import { createCryptoBotProvider, type CryptoBotOptions } from './cryptobot';
import { createPlategaProvider, type PlategaOptions } from './platega';
import type { HttpPaymentProvider, HttpProviderName } from './provider';

/** Settings not in `PaymentsConfig` yet; each has a documented default in its adapter. */
export interface HttpProviderOptions {
  cryptobot?: CryptoBotOptions;
  platega?: PlategaOptions;
}

/**
 * The HTTP providers that configuration enables (a provider without credentials is absent, and
 * a checkout for it is `provider_unsupported`). `outbound` is the SSRF-safe client every call
 * goes through: its allow-list must admit the providers' hosts when they are loopback stand-ins.
 */
export function createHttpProviders(
  payments: PaymentsConfig,
  outbound: OutboundClient,
  options: HttpProviderOptions = {},
): Partial<Record<HttpProviderName, HttpPaymentProvider>> {
  const providers: Partial<Record<HttpProviderName, HttpPaymentProvider>> = {};
  if (payments.cryptobot) {
    providers.cryptobot = createCryptoBotProvider(payments.cryptobot, outbound, options.cryptobot);
  }
  if (payments.platega) {
    providers.platega = createPlategaProvider(payments.platega, outbound, options.platega);
  }
  return providers;
}
