/**
 * A TradingView Charting Library datafeed over the service's market data (docs/guides/charts.md):
 * `getBars` reads `GET /tokens/:slug/candles`, `subscribeBars` follows
 * `GET /tokens/:slug/stream`, and a `revert` (a reorg) or `reset` asks the chart to reload its
 * history. Symbols are token slugs. Only public endpoints; nothing to install but the library
 * itself (its types are the few declared below, from its `IBasicDataFeed`).
 *
 *   import { createDatafeed } from './tradingview-datafeed';
 *   new TradingView.widget({ symbol: 'atlas', interval: '60', datafeed: createDatafeed({ apiUrl }) });
 *
 * test/integration/tradingview-datafeed.test.ts loads a year of hourly bars and a live bar
 * through it, checking the ordering rules the library enforces.
 */

/** A bar as the library takes it: time in milliseconds, numbers. */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface PeriodParams {
  /** Unix seconds. */
  from: number;
  to: number;
  countBack: number;
  firstDataRequest: boolean;
}

export interface HistoryMetadata {
  noData?: boolean;
  /** Milliseconds: where older bars are, when this range had none. */
  nextTime?: number;
}

export interface SymbolInfo {
  name: string;
  ticker: string;
  description: string;
  type: string;
  session: string;
  timezone: string;
  exchange: string;
  listed_exchange: string;
  format: 'price';
  minmov: number;
  pricescale: number;
  has_intraday: boolean;
  has_seconds: boolean;
  seconds_multipliers: string[];
  has_daily: boolean;
  has_weekly_and_monthly: boolean;
  supported_resolutions: string[];
  volume_precision: number;
  data_status: 'streaming';
  currency_code: string;
}

/** The library's resolutions and the service's names for them. */
const RESOLUTIONS: Record<string, string> = {
  '15S': '15s',
  '1': '1m',
  '5': '5m',
  '15': '15m',
  '60': '1h',
  '240': '4h',
  '1D': '1d',
  '1W': '1w',
};

interface Candles {
  s: 'ok' | 'no_data';
  quoteSymbol: string;
  t: number[];
  o: string[];
  h: string[];
  l: string[];
  c: string[];
  vQuote: string[];
  nextTime: number | null;
}

interface StreamBar {
  resolution: string;
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  vQuote: string;
}

interface StreamTick {
  time: string;
  priceBefore: string;
  price: string;
  quoteAmount: string;
}

/** What the datafeed needs of the browser's (or the `eventsource` package's) EventSource. */
interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
}

export interface DatafeedOptions {
  apiUrl: string;
  fetch?: typeof fetch;
  EventSource?: new (url: string) => EventSourceLike;
}

export function createDatafeed(options: DatafeedOptions) {
  const fetchJson = async <T>(path: string): Promise<T> => {
    const response = await (options.fetch ?? fetch)(`${options.apiUrl}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const EventSourceClass =
    options.EventSource ??
    (globalThis as { EventSource?: new (url: string) => EventSourceLike }).EventSource;
  /** The newest bar time the chart has, per symbol and resolution: live bars never go back. */
  const newest = new Map<string, number>();
  const subscriptions = new Map<string, EventSourceLike>();

  return {
    onReady(callback: (configuration: { supported_resolutions: string[] }) => void): void {
      setTimeout(() => callback({ supported_resolutions: Object.keys(RESOLUTIONS) }), 0);
    },

    resolveSymbol(
      slug: string,
      onResolve: (symbol: SymbolInfo) => void,
      onError: (reason: string) => void,
    ): void {
      fetchJson<{ name: string; ticker: string; template: 'virtuals' | 'dpnm' }>(
        `/tokens/${encodeURIComponent(slug)}`,
      ).then(
        (token) =>
          onResolve({
            name: slug,
            ticker: slug,
            description: `${token.name} (${token.ticker})`,
            type: 'crypto',
            session: '24x7',
            timezone: 'Etc/UTC',
            exchange: 'launchpad',
            listed_exchange: 'launchpad',
            format: 'price',
            minmov: 1,
            // Curve prices are small: twelve decimals shown.
            pricescale: 1e12,
            has_intraday: true,
            has_seconds: true,
            seconds_multipliers: ['15'],
            has_daily: true,
            has_weekly_and_monthly: true,
            supported_resolutions: Object.keys(RESOLUTIONS),
            volume_precision: 2,
            data_status: 'streaming',
            currency_code: token.template === 'virtuals' ? 'VIRTUAL' : 'USDT',
          }),
        (err: Error) => onError(err.message),
      );
    },

    /** `countBack` bars ending at `to` (the library's preferred form), oldest first. */
    getBars(
      symbol: SymbolInfo,
      resolution: string,
      period: PeriodParams,
      onResult: (bars: Bar[], meta: HistoryMetadata) => void,
      onError: (reason: string) => void,
    ): void {
      const name = RESOLUTIONS[resolution];
      if (!name) return onError(`unsupported resolution ${resolution}`);
      const count = Math.min(Math.max(period.countBack, 1), 1500);
      fetchJson<Candles>(
        `/tokens/${encodeURIComponent(symbol.ticker)}/candles?resolution=${name}&to=${period.to}&countback=${count}`,
      ).then(
        (candles) => {
          if (candles.s === 'no_data') {
            // Nothing older at all stops the library from asking again.
            return onResult(
              [],
              candles.nextTime === null ? { noData: true } : { nextTime: candles.nextTime * 1000 },
            );
          }
          const bars = candles.t.map((t, i) => ({
            time: t * 1000,
            open: Number(candles.o[i]),
            high: Number(candles.h[i]),
            low: Number(candles.l[i]),
            close: Number(candles.c[i]),
            volume: Number(candles.vQuote[i]),
          }));
          if (period.firstDataRequest)
            newest.set(`${symbol.ticker}|${resolution}`, bars.at(-1)!.time);
          onResult(bars, { noData: false });
        },
        (err: Error) => onError(err.message),
      );
    },

    /**
     * The live bar: the stream's whole bars (15-second bars built from its ticks, which the
     * stream does not send as bars). A `revert` or `reset` reloads the chart's history.
     */
    subscribeBars(
      symbol: SymbolInfo,
      resolution: string,
      onTick: (bar: Bar) => void,
      listenerGuid: string,
      onResetCacheNeeded: () => void,
    ): void {
      if (!EventSourceClass) throw new Error('no EventSource: pass one in the options');
      const key = `${symbol.ticker}|${resolution}`;
      const name = RESOLUTIONS[resolution]!;
      const seconds = name === '15s';
      const source = new EventSourceClass(
        `${options.apiUrl}/tokens/${encodeURIComponent(symbol.ticker)}/stream?resolutions=${seconds ? '1m' : name}`,
      );
      subscriptions.set(listenerGuid, source);
      let live: Bar | null = null;
      const emit = (bar: Bar) => {
        // The library refuses a bar older than its newest one ("time order violation").
        if (bar.time < (newest.get(key) ?? 0)) return;
        newest.set(key, bar.time);
        live = bar;
        onTick(bar);
      };
      const data = <T>(event: { data?: unknown }): T | null =>
        typeof event.data === 'string' ? (JSON.parse(event.data) as T) : null;
      const emitBar = (bar: StreamBar) =>
        emit({
          time: bar.t * 1000,
          open: Number(bar.o),
          high: Number(bar.h),
          low: Number(bar.l),
          close: Number(bar.c),
          volume: Number(bar.vQuote),
        });
      // The stream starts with the current bar: it may be newer than the history loaded.
      source.addEventListener('snapshot', (event) => {
        const bar = data<{ bars: Record<string, StreamBar> }>(event)?.bars[name];
        if (bar && !seconds) emitBar(bar);
      });
      source.addEventListener('bar', (event) => {
        const bar = data<StreamBar>(event);
        if (bar && !seconds && bar.resolution === name) emitBar(bar);
      });
      source.addEventListener('tick', (event) => {
        const tick = data<StreamTick>(event);
        if (!tick || !seconds) return;
        const time = Math.floor(Date.parse(tick.time) / 15_000) * 15_000;
        const price = Number(tick.price);
        const current: Bar | null = live;
        if (current !== null && current.time === time) {
          emit({
            ...current,
            high: Math.max(current.high, price),
            low: Math.min(current.low, price),
            close: price,
            volume: current.volume + Number(tick.quoteAmount),
          });
        } else {
          const open = Number(tick.priceBefore);
          emit({
            time,
            open,
            high: Math.max(open, price),
            low: Math.min(open, price),
            close: price,
            volume: Number(tick.quoteAmount),
          });
        }
      });
      const reload = () => {
        newest.delete(key);
        live = null;
        onResetCacheNeeded();
      };
      source.addEventListener('revert', (event) => {
        if (data(event)) reload();
      });
      source.addEventListener('reset', (event) => {
        if (data(event)) reload();
      });
    },

    unsubscribeBars(listenerGuid: string): void {
      subscriptions.get(listenerGuid)?.close();
      subscriptions.delete(listenerGuid);
    },
  };
}
