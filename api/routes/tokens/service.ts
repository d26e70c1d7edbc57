import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { getAddress, isAddress, zeroAddress, type Address } from 'viem';
import type { z } from 'zod';
import { launchCalldata, type LaunchParams } from '../../../shared/chain/launchpad';
import type { Config } from '../../../shared/config';
import { Token, TOKEN_TEMPLATES, type TokenTemplate } from '../../../shared/db/entities/token';
import type { EntityManager } from '../../../shared/db/orm';
import { slugify, suffixedSlug } from '../../../shared/domain/slug';
import { AppError } from '../../../shared/errors';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { sqlOf, type Sql } from '../../../shared/db/sql';
import { insertMarketEvents, lockMarketEvents } from '../../../shared/market/events';
import type { Actor } from '../../access/actor';
import { imageUrlOf } from '../media/image-field';
import { factoryOf } from './chains';
import {
  launchParamsSchemas,
  publicToken,
  type CreateTokenInput,
  type createdTokenSchema,
  type TokenWireFields,
} from './schemas';

/**
 * `POST /tokens`: token metadata and launch calldata (spec "Tokens", docs/spec/contract.md §7).
 * The service never signs. The reads are one file each: `list.ts` (`GET /tokens`),
 * `detail.ts` (`GET /tokens/:slug` and `/onchain`), `holders.ts`, `trades.ts`, `chains.ts`
 * (`GET /chains`); `TokenDeps` is what they all take a part of.
 */

export interface TokenDeps {
  /** Writes: the request's EntityManager. */
  em: EntityManager;
  /** Reads: prepared statements, no entities. */
  db: Sql;
  cursors: CursorCodec;
  config: Pick<
    Config,
    'chainRpcUrls' | 'launchFactories' | 'chainPaymentTokens' | 'media' | 'publicBaseUrl'
  >;
  /** Tells the API processes the market outbox has a new event (the firehose's `token`). */
  announceMarketEvents: () => Promise<void>;
}

type TokenConfig = Pick<Config, 'chainRpcUrls' | 'launchFactories'>;

/** The row `createToken` inserts. */
type TokenFields = Omit<TokenWireFields, 'createdAt'> & { createdAt: Date };

// Checked before upper-casing: toUpperCase() turns "ß" into "SS" and "ı" into "I".
export const TICKER = /^[A-Za-z0-9]{3,6}$/;
export const TICKER_RULE = 'must be 3 to 6 characters, A-Z and 0-9 only';
const SLUG_ATTEMPTS = 5;

const shown = (value: string) =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

/** A ticker as stored (trimmed, upper case); 400 `invalid_ticker` when it breaks the rule. */
export function tickerOf(raw: string): string {
  const ticker = raw.trim();
  if (!TICKER.test(ticker)) throw new AppError('invalid_ticker', `ticker: ${TICKER_RULE}`);
  return ticker.toUpperCase();
}

/** `params.<field>: <problem>` for each issue, like every other validation message. */
function paramsError(issues: z.core.$ZodIssue[]): AppError {
  const messages = issues.map((issue) => {
    const path = ['params', ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return `${issue.keys.map((key) => `${path}.${key}`).join(', ')}: is not a known field`;
    }
    return `${path}: ${issue.message}`;
  });
  return new AppError('params_invalid', messages.join('; '));
}

interface ValidatedToken<T extends TokenTemplate> {
  template: T;
  ticker: string;
  params: LaunchParams[T];
  instance: Address | null;
}

/** Every check that needs no database, in the order a client would fix them. */
function validate(config: TokenConfig, input: CreateTokenInput): ValidatedToken<TokenTemplate> {
  if (config.chainRpcUrls[input.chainId] === undefined) {
    throw new AppError(
      'chain_unsupported',
      `chainId: ${input.chainId} is not configured; GET /chains lists the supported chains`,
    );
  }
  const template = TOKEN_TEMPLATES.find((known) => known === input.template);
  if (!template) {
    throw new AppError(
      'template_unknown',
      `template: ${shown(input.template)} is not a template (${TOKEN_TEMPLATES.join(', ')})`,
    );
  }
  if (!factoryOf(config, input.chainId, template)) {
    throw new AppError(
      'template_unknown',
      `template: ${template} has no launch factory on chain ${input.chainId}`,
    );
  }
  const ticker = tickerOf(input.ticker);
  const parsed = launchParamsSchemas[template].safeParse(input.params);
  if (!parsed.success) throw paramsError(parsed.error.issues);

  let instance: Address | null = null;
  if (input.instance != null) {
    // Strict: a mixed-case address must carry a valid EIP-55 checksum.
    if (!isAddress(input.instance) || input.instance.toLowerCase() === zeroAddress) {
      throw new AppError(
        'invalid_request',
        'instance: must be a non-zero 0x address (mixed case must be a valid EIP-55 checksum)',
      );
    }
    instance = getAddress(input.instance);
  }
  return { template, ticker, params: parsed.data, instance };
}

/** 409 `ticker_taken`. */
export function tickerTaken(ticker: string, chainId: number): AppError {
  return new AppError('ticker_taken', `ticker: ${ticker} is already used on chain ${chainId}`);
}

/** The constraint a unique violation hit (node-postgres reports it; MikroORM copies it). */
export function constraintOf(error: UniqueConstraintViolationException): string | undefined {
  return (error as { constraint?: string }).constraint;
}

/**
 * Creates the metadata row in one INSERT after every check, so a refused request writes
 * nothing. Uniqueness of ticker and instance per chain is left to the database's
 * constraints, which also decides races between API instances.
 */
export async function createToken(
  deps: Pick<TokenDeps, 'em' | 'config' | 'announceMarketEvents'>,
  actor: Actor,
  input: CreateTokenInput,
): Promise<z.infer<typeof createdTokenSchema>> {
  const { template, ticker, params, instance } = validate(deps.config, input);
  const imageUrl = await imageUrlOf(sqlOf(deps.em), deps.config, input);
  const id = randomUUID();
  const row: TokenFields = {
    id,
    slug: slugify(input.name, 'token'),
    name: input.name,
    ticker,
    template,
    instance,
    chainId: input.chainId,
    imageUrl: imageUrl ?? null,
    brief: input.brief ?? null,
    params: { ...params },
    state: instance ? 'live' : 'pending',
    // Metadata only when the instance exists already; else the wallet launches it with this.
    pendingLaunchTx: instance ? null : launchCalldata(template, id, input.name, ticker, params),
    createdAt: new Date(),
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      // The token and its firehose event commit together (docs/chain.md "Market data").
      await deps.em.transactional(async (tx) => {
        await tx.insert(Token, { ...row, owner: actor.userId });
        const sql = sqlOf(tx);
        await sql.run(lockMarketEvents, []);
        await insertMarketEvents(sql, [
          { tokenId: id, kind: 'token', payload: { reason: 'created', state: row.state } },
        ]);
      });
      await deps.announceMarketEvents();
      const created = publicToken({ ...row, createdAt: row.createdAt.toISOString() });
      // Where the wallet sends pendingLaunchTx, so it needs no second call.
      return {
        ...created,
        launchFactory: instance ? null : factoryOf(deps.config, row.chainId, template),
      };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const constraint = constraintOf(error);
      if (constraint === 'tokens_chain_id_ticker_unique') {
        throw tickerTaken(ticker, row.chainId);
      }
      if (constraint === 'tokens_chain_id_instance_unique') {
        throw new AppError(
          'instance_taken',
          `instance: ${instance} is already linked to a token on chain ${row.chainId}`,
        );
      }
      if (constraint !== 'tokens_slug_unique' || attempt >= SLUG_ATTEMPTS) throw error;
      row.slug = suffixedSlug(slugify(input.name, 'token'));
    }
  }
}
