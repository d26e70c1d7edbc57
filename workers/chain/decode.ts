import {
  decodeAbiParameters,
  toEventSelector,
  type AbiEvent,
  type AbiParameter,
  type Hex,
  type Log,
} from 'viem';
import type { TokenTemplate } from '../../shared/db/entities/token';
import type { TradeKind } from '../../shared/db/entities/token-trade';
import {
  curveEvents,
  erc20Events,
  EVENT_SUBJECTS,
  factoryEvents,
  protocolEvents,
} from '../../shared/chain/events';
import { tokenIdOfRef } from '../../shared/chain/launchpad';

/**
 * Logs of one block range turned into the rows of the chain index (docs/chain.md "Indexer").
 * Pure: what a log means depends only on the log and on which contract emitted it, so a
 * re-index of the same blocks yields the same rows.
 */

/** Where a row comes from: what every table keys on (docs/spec/contract.md §10). */
export interface Position {
  blockNumber: number;
  logIndex: number;
  blockHash: string;
  txHash: string;
  /** ISO 8601 of the block's timestamp. */
  blockTime: string;
}

export interface LaunchRow extends Position {
  instance: string;
  template: TokenTemplate;
  factory: string;
  tokenId: string;
  creator: string;
}

export interface DpnmLaunchRow {
  instance: string;
  protocol: string;
  tree: string;
  gwt: string;
  params: Record<string, string>;
}

export interface TransferRow extends Position {
  instance: string;
  fromAddress: string;
  toAddress: string;
  value: string;
}

/** A USDT `Transfer` to the deployment's treasury (a `usdt_bep20` payment, or not). */
export interface TreasuryTransferRow extends Position {
  token: string;
  fromAddress: string;
  toAddress: string;
  value: string;
}

export interface TradeRow extends Position {
  instance: string;
  kind: TradeKind;
  trader: string | null;
  amountToken: string;
  amountPayment: string;
  price: string;
  reserveToken: string | null;
  lockedPayment: string | null;
  /** Spot prices around a buy or sell, and the circulating supply after it; null on a graduation. */
  priceBefore: string | null;
  priceAfter: string | null;
  supplyAfter: string | null;
}

export interface EventRow extends Position {
  instance: string;
  emitter: string;
  name: string;
  subject: string | null;
  args: Record<string, string | number | boolean>;
}

export interface Batch {
  launches: LaunchRow[];
  dpnmLaunches: DpnmLaunchRow[];
  transfers: TransferRow[];
  trades: TradeRow[];
  /** Protocol events in log order (activations among them build the tree in that order). */
  events: EventRow[];
  /** USDT transfers to the treasury (`decodeTreasuryTransfers`). */
  treasuryTransfers: TreasuryTransferRow[];
}

/** What a watched address is, so its logs decode against the right events. */
export type Role =
  | { kind: 'factory'; template: TokenTemplate }
  | { kind: 'token'; instance: string; curve?: Curve }
  | { kind: 'protocol'; instance: string };

/** A virtuals curve's constants, from its `CurveCreated`. */
export interface Curve {
  /** The virtual payment reserve the spot price counts (the graduation threshold). */
  virtualPayment: bigint;
  /** The tokens the curve opened with: the whole supply. */
  supply: bigint;
}

const ONE = 10n ** 18n;

/** A curve's spot price: (locked + virtual payment) per token left on it, per whole token. */
export function curvePrice(locked: bigint, reserve: bigint, curve: Curve): bigint {
  return reserve > 0n ? ((locked + curve.virtualPayment) * ONE) / reserve : 0n;
}

/** Payment per whole token in base units; 0 when no token moved (never divides by zero). */
export function priceOf(amountPayment: bigint, amountToken: bigint): bigint {
  return amountToken === 0n ? 0n : (amountPayment * ONE) / amountToken;
}

function plain(args: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'bigint') out[key] = value.toString();
    else if (typeof value === 'string') out[key] = value.toLowerCase();
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

interface EventShape {
  name: string;
  indexed: readonly AbiParameter[];
  data: readonly AbiParameter[];
  /** Only one-word types in the data (uintN, bool, address, bytesN; our events have no intN). */
  staticData: boolean;
}

const ONE_WORD = /^(uint\d*|bool|address|bytes([1-9]|[12]\d|3[0-2]))$/;

/**
 * The events of a contract by their first topic, computed once. viem's `decodeEventLog` would
 * format and hash every candidate signature for every log, which is most of a range's decoding
 * time (bench/README.md "Chain indexer").
 */
function shapesOf(abi: readonly AbiEvent[]): Map<string, EventShape> {
  return new Map(
    abi.map((event) => [
      toEventSelector(event),
      {
        name: event.name,
        indexed: event.inputs.filter((input) => input.indexed),
        data: event.inputs.filter((input) => !input.indexed),
        staticData: event.inputs.every((input) => input.indexed || ONE_WORD.test(input.type)),
      },
    ]),
  );
}

const FACTORY_SHAPES = shapesOf([...factoryEvents, ...curveEvents]);
const ERC20_SHAPES = shapesOf(erc20Events);
const PROTOCOL_SHAPES = shapesOf(protocolEvents);

/** The factories' events that make new contracts to watch: launches and new curves. */
const LAUNCH_SELECTORS = new Set(
  [...FACTORY_SHAPES]
    .filter(([, shape]) => ['Launched', 'DpnmLaunched', 'CurveCreated'].includes(shape.name))
    .map(([selector]) => selector),
);

/**
 * Whether a factory log launches a contract the indexer must watch, so the range's reader
 * decodes those alone (a busy factory's logs are mostly trades, decoded once, later).
 */
export function isLaunchLog(log: Log): boolean {
  return log.topics[0] !== undefined && LAUNCH_SELECTORS.has(log.topics[0]);
}

/** A one-word value (an indexed topic, or a static data word); our events have no signed ints. */
function topicValue(type: string, topic: Hex): unknown {
  if (type === 'address') return `0x${topic.slice(26)}`;
  if (type === 'bool') return BigInt(topic) !== 0n;
  if (type.startsWith('bytes')) return topic.slice(0, 2 + 2 * Number(type.slice(5)));
  // As viem decodes them: integers of up to 48 bits are numbers, wider ones bigints.
  return (Number(type.slice(4)) || 256) <= 48 ? Number(BigInt(topic)) : BigInt(topic);
}

function decode(shapes: Map<string, EventShape>, log: Log) {
  const shape = log.topics[0] ? shapes.get(log.topics[0]) : undefined;
  // Another event of the contract (an ERC-20 `Approval`, …): not indexed.
  if (!shape || log.topics.length !== shape.indexed.length + 1) return null;
  const args: Record<string, unknown> = {};
  shape.indexed.forEach((input, i) => {
    args[input.name!] = topicValue(input.type, log.topics[i + 1]!);
  });
  if (shape.staticData) {
    // Every data argument is one 32-byte word, in order.
    shape.data.forEach((input, i) => {
      args[input.name!] = topicValue(input.type, `0x${log.data.slice(2 + 64 * i, 66 + 64 * i)}`);
    });
  } else {
    const values = decodeAbiParameters(shape.data, log.data);
    shape.data.forEach((input, i) => {
      args[input.name!] = values[i];
    });
  }
  return { eventName: shape.name, args };
}

/** Where a log sits; null for a pending log (getLogs over mined ranges returns none). */
function positionOf(log: Log, timeOf: (blockNumber: number) => string): Position | null {
  if (log.blockNumber === null || log.logIndex === null || !log.blockHash || !log.transactionHash)
    return null;
  const blockNumber = Number(log.blockNumber);
  return {
    blockNumber,
    logIndex: log.logIndex,
    blockHash: log.blockHash,
    txHash: log.transactionHash,
    blockTime: timeOf(blockNumber),
  };
}

/**
 * The rows of `logs`, which come sorted by (block, log index). `roleOf` says what each
 * emitting address is (lowercase); `timeOf` gives a block's timestamp. Launches found in the
 * same batch must already be in `roleOf`.
 */
export function decodeBatch(
  logs: readonly Log[],
  roleOf: (address: string) => Role | undefined,
  timeOf: (blockNumber: number) => string,
): Batch {
  const batch: Batch = {
    launches: [],
    dpnmLaunches: [],
    transfers: [],
    trades: [],
    events: [],
    treasuryTransfers: [],
  };
  // Curves opened in this batch, then those the roles know (launched in earlier ranges).
  const opened = new Map<string, Curve>();
  const curves: Curves = {
    get: (instance) => {
      const role = roleOf(instance);
      return opened.get(instance) ?? (role?.kind === 'token' ? role.curve : undefined);
    },
    set: (instance, curve) => opened.set(instance, curve),
  };
  for (const log of logs) {
    const emitter = log.address.toLowerCase();
    const role = roleOf(emitter);
    const position = role && positionOf(log, timeOf);
    if (!role || !position) continue;
    if (role.kind === 'factory') {
      decodeFactoryLog(batch, log, emitter, role.template, position, curves);
    } else if (role.kind === 'token') decodeTokenLog(batch, log, role.instance, position);
    else decodeProtocolLog(batch, log, emitter, role.instance, position);
  }
  return batch;
}

interface Curves {
  get(instance: string): Curve | undefined;
  set(instance: string, curve: Curve): void;
}

function decodeFactoryLog(
  batch: Batch,
  log: Log,
  factory: string,
  template: TokenTemplate,
  position: Position,
  curves: Curves,
): void {
  const event = decode(FACTORY_SHAPES, log);
  if (!event) return;
  const args = event.args;
  switch (event.eventName) {
    case 'Launched':
      batch.launches.push({
        ...position,
        instance: String(args.instance).toLowerCase(),
        template,
        factory,
        tokenId: tokenIdOfRef(args.ref as `0x${string}`),
        creator: String(args.creator).toLowerCase(),
      });
      return;
    case 'DpnmLaunched': {
      const { instance, protocol, tree, gwt, ...params } = plain(args);
      batch.dpnmLaunches.push({
        instance: String(instance),
        protocol: String(protocol),
        tree: String(tree),
        gwt: String(gwt),
        params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      });
      return;
    }
    case 'Trade': {
      const payment = args.amountPayment as bigint;
      const token = args.amountToken as bigint;
      const instance = String(args.token).toLowerCase();
      const reserve = args.reserveToken as bigint;
      const locked = args.lockedPayment as bigint;
      const curve = curves.get(instance);
      // The reserves before the trade: a buy added payment and took tokens, a sell the reverse.
      const sign = args.isBuy ? 1n : -1n;
      batch.trades.push({
        ...position,
        instance,
        kind: args.isBuy ? 'buy' : 'sell',
        trader: String(args.trader).toLowerCase(),
        amountToken: token.toString(),
        amountPayment: payment.toString(),
        price: priceOf(payment, token).toString(),
        reserveToken: reserve.toString(),
        lockedPayment: locked.toString(),
        priceBefore: curve
          ? curvePrice(locked - sign * payment, reserve + sign * token, curve).toString()
          : null,
        priceAfter: curve ? curvePrice(locked, reserve, curve).toString() : null,
        supplyAfter: curve ? (curve.supply - reserve).toString() : null,
      });
      return;
    }
    case 'Graduated': {
      const instance = String(args.token).toLowerCase();
      const locked = String(args.lockedPayment);
      const reserve = String(args.reserveToken);
      // The graduating buy is in the same transaction, so in this batch: its price is the
      // curve's last.
      const last = batch.trades.findLast((trade) => trade.instance === instance);
      batch.trades.push({
        ...position,
        instance,
        kind: 'graduation',
        trader: last?.trader ?? null,
        amountToken: reserve,
        amountPayment: locked,
        price: last?.price ?? '0',
        reserveToken: reserve,
        lockedPayment: locked,
        priceBefore: null,
        priceAfter: null,
        supplyAfter: null,
      });
      return;
    }
    case 'CurveCreated': {
      const plainArgs = plain(args);
      curves.set(String(plainArgs.token), {
        virtualPayment: args.virtualPayment as bigint,
        supply: args.reserveToken as bigint,
      });
      batch.events.push({
        ...position,
        instance: String(plainArgs.token),
        emitter: factory,
        name: 'CurveCreated',
        subject: null,
        args: plainArgs,
      });
      return;
    }
  }
}

/**
 * The `Transfer`s to `treasury` among `logs` of the USDT token `token` (read with a topic filter
 * on `to`; checked again here, so a provider that ignores the filter changes nothing).
 */
export function decodeTreasuryTransfers(
  logs: readonly Log[],
  token: string,
  treasury: string,
  timeOf: (blockNumber: number) => string,
): TreasuryTransferRow[] {
  const rows: TreasuryTransferRow[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== token) continue;
    const position = positionOf(log, timeOf);
    const event = position && decode(ERC20_SHAPES, log);
    if (!position || event?.eventName !== 'Transfer') continue;
    const to = String(event.args.to).toLowerCase();
    if (to !== treasury) continue;
    rows.push({
      ...position,
      token,
      fromAddress: String(event.args.from).toLowerCase(),
      toAddress: to,
      value: String(event.args.value),
    });
  }
  return rows;
}

function decodeTokenLog(batch: Batch, log: Log, instance: string, position: Position): void {
  const event = decode(ERC20_SHAPES, log);
  if (event?.eventName !== 'Transfer') return;
  batch.transfers.push({
    ...position,
    instance,
    fromAddress: String(event.args.from).toLowerCase(),
    toAddress: String(event.args.to).toLowerCase(),
    value: String(event.args.value),
  });
}

function decodeProtocolLog(
  batch: Batch,
  log: Log,
  emitter: string,
  instance: string,
  position: Position,
): void {
  const event = decode(PROTOCOL_SHAPES, log);
  if (!event) return;
  const args = plain(event.args);
  const subjectArg = EVENT_SUBJECTS[event.eventName];
  batch.events.push({
    ...position,
    instance,
    emitter,
    name: event.eventName,
    subject: subjectArg ? String(args[subjectArg]) : null,
    args,
  });
  if (event.eventName === 'Bought' || event.eventName === 'Sold') {
    const bought = event.eventName === 'Bought';
    batch.trades.push({
      ...position,
      instance,
      kind: bought ? 'buy' : 'sell',
      trader: String(args.trader),
      amountToken: String(bought ? args.tokensOut : args.tokensIn),
      amountPayment: String(bought ? args.usdtIn : args.usdtOut),
      price: String(args.price),
      reserveToken: null,
      lockedPayment: null,
      // The protocol trades at its price before the trade; the pool after it comes next.
      priceBefore: String(args.price),
      priceAfter: null,
      supplyAfter: null,
    });
  } else if (event.eventName === 'PoolUpdated') {
    // Last in every call that changes the pool: the state after this transaction's trade.
    const trade = batch.trades.findLast(
      (row) => row.txHash === position.txHash && row.instance === instance,
    );
    if (trade && trade.priceAfter === null && trade.kind !== 'graduation') {
      trade.priceAfter = String(args.price);
      trade.supplyAfter = String(args.totalSupply);
    }
  }
}
