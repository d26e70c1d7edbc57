import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { statement, type SqlPool } from '../../../shared/db/sql';
import { MatrixError, MATRIX_UPLOAD_TIMEOUT_MS } from '../../../shared/matrix/client';
import { mediaContent } from '../../../shared/matrix/content';
import { imageMimeType, sniffMimeType } from '../../../shared/media/file-type';
import { OutboundError, type OutboundClient } from '../../../shared/net/outbound-client';
import { checkOutboundUrl } from '../../../shared/net/outbound-url';
import { AppError } from '../../../shared/errors';
import { BotError } from './errors';
import { upstreamFailure, roomNotFound, transactionIdFor, type BotDeps } from './service';
import { safeFilename } from './upload';

/**
 * sendPhoto and sendDocument (docs/spec/contract.md §17, docs/bot-gateway.md): a file from a
 * multipart part, an https URL or an earlier `media_id`, uploaded to the homeserver once per
 * bot token and content, then posted as `m.image` or `m.file`.
 */

export type FileKind = 'photo' | 'document';

const MIB = 1024 * 1024;
/** The gateway's own limits per route (the homeserver's may be lower). */
export const FILE_MAX_BYTES: Record<FileKind, number> = { photo: 10 * MIB, document: 50 * MIB };
/** Synapse makes no thumbnails above 32 megapixels (`max_image_pixels`); a photo stays under. */
export const PHOTO_MAX_PIXELS = 32 * 1_000_000;
/** Redirects a `photo_url`/`document_url` may take, each checked as the first URL. */
export const FETCH_MAX_REDIRECTS = 3;
export const FETCH_TIMEOUT_MS = 20_000;
/** A claim older than this is an upload that died: another request takes it over. */
const CLAIM_LEASE_MS = MATRIX_UPLOAD_TIMEOUT_MS + 30_000;
/** How often a request waiting for another's upload of the same file looks again. */
const CLAIM_POLL_MS = 200;

export interface FileDeps extends BotDeps {
  db: SqlPool;
  /** The SSRF-safe client URLs are fetched through (no allow-listed hosts in production). */
  fetcher: OutboundClient;
  allowedHosts: readonly string[];
}

/** What a request sends, its source resolved to bytes or to an earlier upload. */
export type FileSource =
  | { kind: 'bytes'; bytes: Buffer; filename: string | null }
  | { kind: 'url'; url: string }
  | { kind: 'media'; mediaId: string };

export interface FileMessage {
  room_id: string;
  caption?: string;
  markdown?: boolean;
  reply_to?: string;
  filename?: string;
}

export interface StoredFile {
  media_id: string;
  mxc: string;
  mimetype: string;
  size: number;
  filename: string;
  w?: number;
  h?: number;
}

interface BotMediaRow {
  id: string;
  mxc: string | null;
  mimetype: string;
  size: number;
  width: number | null;
  height: number | null;
  filename: string;
}

const MEDIA_COLUMNS = 'id, mxc, mimetype, size, width, height, filename';

/**
 * The upload's claim: a new row, or a claim that outlived its lease taken over. A row comes
 * back only when this request is now the one to upload.
 */
const claimUpload = statement<
  BotMediaRow,
  [
    id: string,
    bot: string,
    sha256: string,
    mimetype: string,
    size: number,
    width: number | null,
    height: number | null,
    filename: string,
    leaseMs: number,
  ]
>(
  'bot-media.claim',
  `insert into bot_media
     (id, bot, sha256, mxc, mimetype, size, width, height, filename, claimed_at, created_at)
   values ($1, $2, $3, null, $4, $5, $6, $7, $8, now(), now())
   on conflict (bot, sha256) do update set claimed_at = now()
   where bot_media.mxc is null
     and bot_media.claimed_at < now() - make_interval(secs => $9::int / 1000.0)
   returning ${MEDIA_COLUMNS}`,
);

const mediaByContent = statement<BotMediaRow, [bot: string, sha256: string]>(
  'bot-media.by-content',
  `select ${MEDIA_COLUMNS} from bot_media where bot = $1 and sha256 = $2`,
);

const mediaById = statement<BotMediaRow, [id: string, bot: string]>(
  'bot-media.by-id',
  `select ${MEDIA_COLUMNS} from bot_media where id = $1 and bot = $2 and mxc is not null`,
);

const completeUpload = statement<Record<string, never>, [id: string, mxc: string]>(
  'bot-media.complete',
  'update bot_media set mxc = $2 where id = $1 and mxc is null',
);

/** A failed upload gives its claim back, so the next request uploads at once. */
const releaseUpload = statement<Record<string, never>, [id: string]>(
  'bot-media.release',
  'delete from bot_media where id = $1 and mxc is null',
);

const newMediaId = () => `bm_${randomBytes(16).toString('base64url')}`;

const mib = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/** The largest file this route takes now: its own limit, or the homeserver's if lower. */
export async function fileLimit(
  deps: BotDeps,
  kind: FileKind,
): Promise<{ maxBytes: number; limitName: string }> {
  let homeserver: number | null;
  try {
    homeserver = await deps.bot.uploadLimit();
  } catch (error) {
    throw upstreamFailure(deps, error, 'the homeserver');
  }
  if (homeserver !== null && homeserver < FILE_MAX_BYTES[kind]) {
    return { maxBytes: homeserver, limitName: '(the homeserver’s upload limit)' };
  }
  return { maxBytes: FILE_MAX_BYTES[kind], limitName: `(${kind}s)` };
}

/**
 * The bot must be in the room before anything is read or fetched: 403 `forbidden` or 404
 * `room_not_found` come before the file.
 */
export async function checkRoom(deps: BotDeps, roomId: string): Promise<void> {
  let membership: string | null;
  try {
    membership = await deps.bot.membership(roomId, await deps.bot.whoAmI());
  } catch (error) {
    if (!(error instanceof MatrixError) || error.errcode !== 'M_FORBIDDEN') {
      throw upstreamFailure(deps, error, roomId);
    }
    membership = null;
  }
  if (membership === 'join') return;
  const exists = await deps.bot.roomExists(roomId).catch(() => true);
  if (!exists) throw roomNotFound(roomId);
  throw new BotError('forbidden', 'The bot is not in the room. Call joinRoom first.');
}

/** Refuses a URL that may not be fetched before any request is made (400 `invalid_body`). */
export async function checkFileUrl(deps: FileDeps, field: string, url: string): Promise<void> {
  try {
    await checkOutboundUrl(url, { allowedHosts: deps.allowedHosts }, field);
  } catch (error) {
    if (error instanceof AppError) throw new BotError('invalid_body', error.message);
    throw error;
  }
}

async function fetchFile(deps: FileDeps, field: string, url: string, maxBytes: number) {
  try {
    const fetched = await deps.fetcher.fetchBytes(url, {
      maxBytes,
      maxRedirects: FETCH_MAX_REDIRECTS,
    });
    if (fetched.status < 200 || fetched.status >= 300) {
      throw new BotError('fetch_failed', `${field}: the server answered ${fetched.status}`);
    }
    return { bytes: fetched.bytes, filename: filenameOfUrl(fetched.url) };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    switch (error.kind) {
      case 'too_large':
        throw new BotError('file_too_large', `${field}: the file is larger than ${mib(maxBytes)}`);
      case 'forbidden_address':
        throw new BotError(
          'fetch_failed',
          `${field}: the URL (or a redirect) leads to a host that is not a public address`,
        );
      case 'invalid_url':
        throw new BotError(
          'fetch_failed',
          `${field}: a redirect leads to a URL that may not be fetched (${error.message})`,
        );
      default:
        throw new BotError('fetch_failed', `${field}: ${error.message}`);
    }
  }
}

function filenameOfUrl(url: string): string | null {
  try {
    return safeFilename(decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? ''));
  } catch {
    return null;
  }
}

/** Over 32 megapixels: Synapse makes no thumbnail, so such a picture goes as a document. */
function checkPixels(field: string, width: number, height: number): void {
  if (width * height <= PHOTO_MAX_PIXELS) return;
  throw new BotError(
    'file_too_large',
    `${field}: the photo is ${width} × ${height} pixels (${Math.round((width * height) / 1e6)} ` +
      'megapixels); at most 32 megapixels, send it with sendDocument',
  );
}

/**
 * What the bytes are: the type from the bytes; for a photo also the check and the pixel size.
 * `field` names the source in refusals (`file`, `photo_url`).
 */
async function describeBytes(kind: FileKind, field: string, bytes: Buffer) {
  const image = imageMimeType(bytes);
  if (kind === 'photo' && !image) {
    throw new BotError(
      'unsupported_media_type',
      `${field}: is not a PNG, JPEG, GIF or WebP image (read from its bytes); send it with ` +
        'sendDocument',
    );
  }
  if (!image) return { mimetype: sniffMimeType(bytes), width: null, height: null };
  let width = 0;
  let height = 0;
  try {
    // The header only: no pixel is decoded.
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    // As clients show it: EXIF orientation applied.
    width = metadata.autoOrient.width;
    height = metadata.autoOrient.height;
  } catch {
    if (kind === 'photo') {
      throw new BotError('invalid_body', `${field}: is not a readable ${image} image`);
    }
    return { mimetype: image, width: null, height: null };
  }
  if (kind === 'photo') checkPixels(field, width, height);
  return { mimetype: image, width, height };
}

const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

/**
 * The file on the homeserver, uploaded at most once per bot and content: the first request
 * claims the row and uploads; one that finds the claim waits for it; one that finds the upload
 * done uses it.
 */
async function storeOnce(
  deps: FileDeps,
  bot: string,
  kind: FileKind,
  field: string,
  bytes: Buffer,
  filename: string | null,
): Promise<StoredFile> {
  const described = await describeBytes(kind, field, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const name =
    filename ??
    `${kind}${extensionOf[described.mimetype] ? `.${extensionOf[described.mimetype]}` : ''}`;
  const deadline = Date.now() + CLAIM_LEASE_MS;
  for (;;) {
    const claimed = await deps.db.row(claimUpload, [
      newMediaId(),
      bot,
      sha256,
      described.mimetype,
      bytes.length,
      described.width,
      described.height,
      name,
      CLAIM_LEASE_MS,
    ]);
    if (claimed) {
      let mxc: string;
      try {
        mxc = await deps.bot.upload(bytes, described.mimetype, name);
      } catch (error) {
        await deps.db.run(releaseUpload, [claimed.id]);
        throw uploadFailure(deps, error);
      }
      await deps.db.run(completeUpload, [claimed.id, mxc]);
      return storedOf({ ...claimed, mxc }, name);
    }
    const existing = await deps.db.row(mediaByContent, [bot, sha256]);
    if (existing?.mxc) return storedOf(existing, name);
    if (Date.now() > deadline) {
      throw new BotError(
        'send_failed',
        'Another upload of this file did not finish. Retry is safe.',
      );
    }
    await sleep(CLAIM_POLL_MS);
  }
}

function uploadFailure(deps: BotDeps, error: unknown): Error {
  if (error instanceof MatrixError && error.errcode === 'M_TOO_LARGE') {
    return new BotError('file_too_large', 'file: is larger than the homeserver accepts');
  }
  return upstreamFailure(deps, error, 'the homeserver');
}

function storedOf(row: BotMediaRow, filename: string): StoredFile {
  return {
    media_id: row.id,
    mxc: row.mxc ?? '',
    mimetype: row.mimetype,
    size: row.size,
    filename,
    ...(row.width !== null && row.height !== null ? { w: row.width, h: row.height } : {}),
  };
}

/** An earlier upload of this bot token, by its `media_id`. */
async function storedById(
  deps: FileDeps,
  bot: string,
  kind: FileKind,
  mediaId: string,
  filename: string | undefined,
): Promise<StoredFile> {
  const row = await deps.db.row(mediaById, [mediaId, bot]);
  if (!row) {
    throw new BotError(
      'media_not_found',
      `media_id: ${mediaId.slice(0, 64)} is not a file this bot uploaded`,
    );
  }
  if (kind === 'photo') {
    // Sent before as a document, perhaps: the photo rules hold for a re-send too.
    if (row.width === null || row.height === null) {
      throw new BotError(
        'unsupported_media_type',
        `media_id: is not a photo (it is ${row.mimetype}); send it with sendDocument`,
      );
    }
    if (row.size > FILE_MAX_BYTES.photo) {
      throw new BotError(
        'file_too_large',
        `media_id: is larger than ${mib(FILE_MAX_BYTES.photo)} (photos); send it with sendDocument`,
      );
    }
    checkPixels('media_id', row.width, row.height);
  }
  return storedOf(row, filename ?? row.filename);
}

/** The file of a request, on the homeserver. */
export async function resolveFile(
  deps: FileDeps,
  bot: string,
  kind: FileKind,
  source: FileSource,
  options: { maxBytes: number; filename?: string },
): Promise<StoredFile> {
  const field = kind === 'photo' ? 'photo_url' : 'document_url';
  switch (source.kind) {
    case 'media':
      return storedById(deps, bot, kind, source.mediaId, options.filename);
    case 'url': {
      const fetched = await fetchFile(deps, field, source.url, options.maxBytes);
      const name = options.filename ?? fetched.filename;
      return storeOnce(deps, bot, kind, field, fetched.bytes, name);
    }
    case 'bytes':
      return storeOnce(deps, bot, kind, 'file', source.bytes, options.filename ?? source.filename);
  }
}

/** Posts the file as `m.image` or `m.file`; the Idempotency-Key becomes the transaction id. */
export async function postFile(
  deps: BotDeps,
  kind: FileKind,
  message: FileMessage,
  file: StoredFile,
  idempotencyKey: string | undefined,
) {
  const content = mediaContent(kind === 'photo' ? 'm.image' : 'm.file', file, {
    caption: message.caption,
    markdown: message.markdown,
    replyTo: message.reply_to,
  });
  try {
    const eventId = await deps.bot.sendEvent(
      message.room_id,
      'm.room.message',
      content,
      transactionIdFor(idempotencyKey),
    );
    return {
      event_id: eventId,
      media: {
        media_id: file.media_id,
        mimetype: file.mimetype,
        size: file.size,
        ...(file.w !== undefined ? { w: file.w, h: file.h } : {}),
      },
    };
  } catch (error) {
    // Removed from the room since the check.
    if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
      throw new BotError('forbidden', 'The bot is not in the room. Call joinRoom first.');
    }
    throw upstreamFailure(deps, error, message.room_id);
  }
}
