import {
  centsToDecimal,
  cryptoPaySignature,
  decimalToCents,
  verifyCryptoPaySignature,
} from '../../shared/payments/cryptobot';
import { plategaCredentialsMatch, timeSpanMs } from '../../shared/payments/platega';

/**
 * The pure parts of the payment adapters: Crypto Pay's webhook signature (against a vector
 * computed outside this code base, with Python's hmac and hashlib), Platega's header check, and
 * the amount and duration formats the two APIs use.
 */

const TOKEN = '5678:AAcrypto-pay-test-token';
const BODY = Buffer.from(
  '{"update_id":1,"update_type":"invoice_paid","request_date":"2026-11-24T12:00:00.000Z",' +
    '"payload":{"invoice_id":42,"status":"paid"}}',
);
// hmac.new(hashlib.sha256(TOKEN).digest(), BODY, hashlib.sha256).hexdigest()
const SIGNATURE = 'db8d9cf6df2ba074b8d662f68c6da0bdb54759c3954df0a792f66ab5b2269e3c';
// hmac.new(TOKEN, BODY, hashlib.sha256).hexdigest(): keyed by the token itself, the common mistake.
const KEYED_BY_RAW_TOKEN = '7add8f72d11d36e4a3e8d89a9a14a3c611bd834db9d54bb833280cd1762acb84';

describe('Crypto Pay webhook signature', () => {
  it('is the hex HMAC-SHA-256 of the raw body keyed by SHA-256 of the token', () => {
    expect(cryptoPaySignature(TOKEN, BODY)).toBe(SIGNATURE);
    expect(cryptoPaySignature(TOKEN, BODY.toString('utf8'))).toBe(SIGNATURE);
  });

  it('accepts exactly that signature, in either hex case', () => {
    expect(verifyCryptoPaySignature(TOKEN, BODY, SIGNATURE)).toBe(true);
    expect(verifyCryptoPaySignature(TOKEN, BODY, SIGNATURE.toUpperCase())).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['keyed by the raw token', KEYED_BY_RAW_TOKEN],
    ['truncated', SIGNATURE.slice(0, 62)],
    ['one digit off', `${SIGNATURE.slice(0, 63)}${SIGNATURE.endsWith('c') ? 'd' : 'c'}`],
    ['not hex', `${SIGNATURE.slice(0, 63)}g`],
    ['with a prefix', `sha256=${SIGNATURE}`],
    ['sent twice', [SIGNATURE, SIGNATURE]],
  ])('refuses a signature that is %s', (_label, header) => {
    expect(verifyCryptoPaySignature(TOKEN, BODY, header)).toBe(false);
  });

  it('refuses the signature for another token or other bytes', () => {
    expect(verifyCryptoPaySignature(`${TOKEN}x`, BODY, SIGNATURE)).toBe(false);
    const changed = Buffer.from(
      BODY.toString('utf8').replace('"invoice_id":42', '"invoice_id":43'),
    );
    expect(verifyCryptoPaySignature(TOKEN, changed, SIGNATURE)).toBe(false);
    expect(
      verifyCryptoPaySignature(TOKEN, Buffer.concat([BODY, Buffer.from('\n')]), SIGNATURE),
    ).toBe(false);
  });
});

describe('Platega callback headers', () => {
  const merchantId = '29ef6fa6-0d2b-466c-9604-0363a30436cc';
  const secret = 'iStHENoXjHdy78A4tGG3M6Tzq';

  it('match only with both our merchant id and our secret', () => {
    const ok = { 'x-merchantid': merchantId, 'x-secret': secret };
    expect(plategaCredentialsMatch(ok, merchantId, secret)).toBe(true);
    expect(plategaCredentialsMatch({ ...ok, 'x-secret': `${secret}0` }, merchantId, secret)).toBe(
      false,
    );
    expect(
      plategaCredentialsMatch({ ...ok, 'x-secret': secret.slice(1) }, merchantId, secret),
    ).toBe(false);
    expect(
      plategaCredentialsMatch(
        { ...ok, 'x-merchantid': merchantId.toUpperCase() },
        merchantId,
        secret,
      ),
    ).toBe(false);
    expect(plategaCredentialsMatch({ 'x-secret': secret }, merchantId, secret)).toBe(false);
    expect(plategaCredentialsMatch({ ...ok, 'x-secret': [secret] }, merchantId, secret)).toBe(
      false,
    );
    // Empty configured credentials never match, even empty headers.
    expect(plategaCredentialsMatch({ 'x-merchantid': '', 'x-secret': '' }, '', '')).toBe(false);
  });
});

describe('amount and duration formats', () => {
  it('writes cents as Crypto Pay decimal strings and reads them back', () => {
    expect(centsToDecimal(1234)).toBe('12.34');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(100_000)).toBe('1000.00');
    expect(() => centsToDecimal(0)).toThrow('positive whole number of cents');
    expect(() => centsToDecimal(12.5)).toThrow('positive whole number of cents');
    expect(decimalToCents('12.34')).toBe(1234);
    expect(decimalToCents('12.5')).toBe(1250);
    expect(decimalToCents('12')).toBe(1200);
    expect(decimalToCents('12.3400')).toBe(1234);
    expect(decimalToCents('12.345')).toBeNull();
    expect(decimalToCents('-1')).toBeNull();
    expect(decimalToCents('1e3')).toBeNull();
  });

  it("reads Platega's TimeSpan lifetimes", () => {
    expect(timeSpanMs('00:30:00')).toBe(30 * 60_000);
    expect(timeSpanMs('01:02:03')).toBe(3_723_000);
    expect(timeSpanMs('1.00:00:00')).toBe(86_400_000);
    expect(timeSpanMs('00:15:00.5000000')).toBe(15 * 60_000);
    expect(timeSpanMs('30 minutes')).toBeNull();
    expect(timeSpanMs(undefined)).toBeNull();
  });
});
