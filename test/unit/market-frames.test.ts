import { firehoseText, tokenStreamText, type MarketEventRow } from '../../api/sse/market-frames';

/**
 * The token streams' frames from an outbox row (api/sse/market-frames.ts): tick tuples carry
 * their time in epoch milliseconds, and rows written before that change carry an ISO string;
 * both go on the wire as the same ISO 8601 time.
 */

const TRADER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TX = `0x${'ab'.repeat(32)}`;

function tradesRow(time: number | string): MarketEventRow {
  return {
    seq: '42',
    tokenId: '00000000-0000-4000-8000-000000000001',
    kind: 'trades',
    payload: {
      slug: 'demo',
      blockNumber: 7,
      ticks: [
        [
          7,
          3,
          TX,
          time,
          'buy',
          TRADER,
          '2000000000000000000',
          '500000000000000000',
          '250000000000000000',
          '260000000000000000',
          '1000000000000000000000',
          0.5,
        ],
      ],
      bars: [[60, 1795966200, '1', '2', '1', '2', '3', '4', 1]],
    },
  };
}

function events(text: string) {
  return text
    .trim()
    .split('\n\n')
    .map((frame) => {
      const lines = frame.split('\n');
      return {
        id: lines.find((line) => line.startsWith('id: '))?.slice(4),
        event: lines.find((line) => line.startsWith('event: '))!.slice(7),
        data: JSON.parse(lines.find((line) => line.startsWith('data: '))!.slice(6)) as Record<
          string,
          unknown
        >,
      };
    });
}

describe('token stream frames', () => {
  const iso = '2026-11-29T15:30:00.123Z';

  it('writes a tick with an ISO time from epoch milliseconds, then the bar, the id last', () => {
    const [tick, bar] = events(tokenStreamText(tradesRow(Date.parse(iso)), [60]));
    expect(tick).toEqual({
      id: undefined,
      event: 'tick',
      data: {
        blockNumber: 7,
        txHash: TX,
        logIndex: 3,
        time: iso,
        side: 'buy',
        trader: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        baseAmount: '2',
        quoteAmount: '0.5',
        priceBefore: '0.25',
        price: '0.26',
        marketCap: '1000',
        progressToGraduation: 0.5,
      },
    });
    expect(bar).toMatchObject({ id: '42', event: 'bar', data: { resolution: '1m', n: 1 } });
  });

  it('writes the same frames for a row of the older shape (an ISO time)', () => {
    expect(tokenStreamText(tradesRow(iso), [60])).toBe(
      tokenStreamText(tradesRow(Date.parse(iso)), [60]),
    );
    expect(firehoseText(tradesRow(iso))).toBe(firehoseText(tradesRow(Date.parse(iso))));
  });

  it('leaves out bars of resolutions the client did not ask for', () => {
    const written = events(tokenStreamText(tradesRow(Date.parse(iso)), [3600]));
    expect(written.map((frame) => frame.event)).toEqual(['tick']);
    expect(written[0]!.id).toBe('42');
  });
});
