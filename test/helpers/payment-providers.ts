import type { PaymentsConfig } from '../../shared/config';
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
  const payments: PaymentsConfig = {
    cryptobot: { apiUrl: standIns.cryptobot.apiUrl, token: standIns.cryptobot.token },
    platega: {
      apiUrl: standIns.platega.url,
      merchantId: standIns.platega.merchantId,
      secret: standIns.platega.secret,
    },
    usdtBep20: null,
    invoiceTtlMinutes: 60,
    renewalLeadHours: 72,
    flowPerUsd: 1,
    topupSettlementHours: 24,
  };
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
