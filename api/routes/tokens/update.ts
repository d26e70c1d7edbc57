import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { launchCalldata } from '../../../shared/chain/launchpad';
import { Token } from '../../../shared/db/entities/token';
import { sqlOf } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import { insertMarketEvents, lockMarketEvents } from '../../../shared/market/events';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { imageUrlOf } from '../media/image-field';
import { tokenNotFound } from './access';
import { launchParamsSchemas, type UpdateTokenInput } from './schemas';
import { constraintOf, tickerOf, tickerTaken, type TokenDeps } from './service';

/**
 * `PATCH /tokens/:slug` (docs/spec/contract.md §14), creator only. The description and links
 * change at any time. Name, ticker and image only while the token is `pending`: after the
 * launch the chain holds the name and ticker, and launchpads that copy the image URL freeze it
 * too. A new name or ticker rebuilds `pendingLaunchTx`, so the wallet signs what the metadata
 * says. A field sent with its current value is no change, so a client may send the whole form.
 *
 * The row is locked for the update: the indexer links a launch by an `update … where state =
 * 'pending'` of the same row, so the two never interleave. Lock order as every writer of the
 * market outbox: the token rows, then the outbox's lock. A launch already sent with the old
 * calldata still links by its ref (the token's id); the indexer trusts the chain's figures, not
 * names.
 */
export async function updateToken(
  deps: Pick<TokenDeps, 'em' | 'config' | 'announceMarketEvents'>,
  actor: Actor,
  slug: string,
  input: UpdateTokenInput,
): Promise<void> {
  if (Object.keys(input).length === 0) {
    throw new AppError(
      'invalid_request',
      'body: send at least one of name, ticker, imageUrl, imageMediaId, description, links',
    );
  }
  const ticker = input.ticker === undefined ? undefined : tickerOf(input.ticker);
  let chainId = 0;
  let announce = false;
  try {
    await deps.em.transactional(async (tx) => {
      const token = looksLikeSlug(slug)
        ? await tx.findOne(Token, { slug }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        : null;
      if (!token) throw tokenNotFound(slug);
      if (token.owner.id !== actor.userId) {
        throw new AppError('not_owner', `Token ${token.slug} belongs to another user`);
      }
      chainId = token.chainId;
      const imageUrl = await imageUrlOf(sqlOf(tx), deps.config, input);
      const launchFields = {
        name: changed(input.name, token.name),
        ticker: changed(ticker, token.ticker),
        image: changed(imageUrl, token.imageUrl ?? null),
      };
      const frozen = Object.entries(launchFields).find(([, value]) => value !== undefined);
      if (frozen && (token.state !== 'pending' || token.instance != null)) {
        throw new AppError(
          'token_launched',
          `${frozen[0]}: ${token.slug} is launched (state ${token.state}); only description ` +
            'and links can change',
        );
      }
      if (launchFields.name !== undefined) token.name = launchFields.name;
      if (launchFields.ticker !== undefined) token.ticker = launchFields.ticker;
      if (launchFields.image !== undefined) token.imageUrl = launchFields.image;
      if (launchFields.name !== undefined || launchFields.ticker !== undefined) {
        // The stored params are the create's normalised output: parsing them again types them.
        const params = launchParamsSchemas[token.template].parse(token.params);
        token.pendingLaunchTx = launchCalldata(
          token.template,
          token.id,
          token.name,
          token.ticker,
          params,
        );
      }
      if (input.description !== undefined) token.description = input.description;
      if (input.links?.website !== undefined) token.linkWebsite = input.links.website;
      if (input.links?.twitter !== undefined) token.linkTwitter = input.links.twitter;
      if (input.links?.telegram !== undefined) token.linkTelegram = input.links.telegram;
      await tx.flush();
      // A live board shows the new name or image: the firehose's `token` event, committed with it.
      if (frozen) {
        announce = true;
        const sql = sqlOf(tx);
        await sql.run(lockMarketEvents, []);
        await insertMarketEvents(sql, [
          { tokenId: token.id, kind: 'token', payload: { reason: 'updated', state: token.state } },
        ]);
      }
    });
  } catch (error) {
    if (
      error instanceof UniqueConstraintViolationException &&
      constraintOf(error) === 'tokens_chain_id_ticker_unique'
    ) {
      throw tickerTaken(ticker!, chainId);
    }
    throw error;
  }
  if (announce) await deps.announceMarketEvents();
}

/** The new value when it differs from the current one; undefined when unchanged or not sent. */
function changed<T>(value: T | undefined, current: T): T | undefined {
  return value === undefined || value === current ? undefined : value;
}
