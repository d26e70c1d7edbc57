import { loadConfig, type PaymentsConfig } from '../../shared/config';
import { createOutboundClient, type OutboundClient } from '../../shared/net/outbound-client';
import {
  startPaymentStandIns,
  type PaymentStandIns,
  type PaymentStandInsOptions,
} from '../../scripts/payment-stand-ins';

/**
 * The payment providers' loopback stand-ins (scripts/payment-stand-ins) for one test file, with
 * the `PaymentsConfig` that points at them and an outbound client whose allow-list admits
 * loopback, as the service's would outside production. Set `cryptobot.callbackUrl` /
 * `platega.callbackUrl` to where callbacks should go.
 */

export interface TestPaymentProviders extends PaymentStandIns {
  payments: PaymentsConfig;
  outbound: OutboundClient;
}

export async function startPaymentProviders(
  options: PaymentStandInsOptions = {},
): Promise<TestPaymentProviders> {
  const standIns = await startPaymentStandIns(options);
  const outbound = createOutboundClient({
    allowedHosts: ['127.0.0.1', 'localhost'],
    timeoutMs: 5_000,
    maxResponseBytes: 256 * 1024,
  });
  // Parsed like the service's own configuration, from the variables that point at the stand-ins.
  const payments: PaymentsConfig = loadConfig({ NODE_ENV: 'test', ...standIns.env }).payments;

  return {
    ...standIns,
    payments,
    outbound,
    close: async () => {
      await outbound.close();
      await standIns.close();
    },
  };
}
