import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A file a bot uploaded to the homeserver through the gateway (sendPhoto, sendDocument;
 * docs/bot-gateway.md). One row per bot token and content: the same bytes from the same bot are
 * one `mxc://` upload however often they are sent, and the row's id is the `media_id` a later
 * request re-sends it by. The row is claimed (`mxc` null) before the upload starts, so a retried
 * or concurrent request waits for that upload instead of storing the file again.
 */
export const BotMedia = defineEntity({
  name: 'BotMedia',
  tableName: 'bot_media',
  uniques: [{ properties: ['bot', 'sha256'] }],
  properties: {
    /** `bm_` and 22 base64url characters: the `media_id` of the gateway's answers. */
    id: p.text().primary(),
    /** The bot token's label (the first 12 hex digits of its SHA-256): media is per token. */
    bot: p.text(),
    /** Lowercase hex SHA-256 of the file. */
    sha256: p.string().length(64),
    /** The homeserver's content URI; null while the claiming request uploads. */
    mxc: p.text().nullable(),
    mimetype: p.text(),
    size: p.integer(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    /** The name it was first sent under (a re-send by media_id without a filename uses it). */
    filename: p.text(),
    /** When the upload was claimed; a claim older than the upload deadline is taken over. */
    claimedAt: p.datetime(3),
    createdAt: p.datetime(3),
  },
});

export type BotMedia = InferEntity<typeof BotMedia>;
