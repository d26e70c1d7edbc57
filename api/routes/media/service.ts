import type { Config } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { processImage } from '../../../shared/media/images';
import { DirectoryObjectStore, S3ObjectStore, type ObjectStore } from '../../../shared/media/store';
import { statement, type SqlPool } from '../../../shared/db/sql';

/**
 * Uploads and reads of media (docs/spec/contract.md §14). The object is stored before its row,
 * so a row always has its object; a crash between leaves an unreferenced object that the next
 * upload of the same picture adopts (its key is its content's hash).
 */

export const MEDIA_MIME_TYPE = 'image/webp' as const;

/** The object's key in the store: content-addressed, never reused for other bytes. */
export const mediaKey = (id: string) => `media/${id}.webp`;

export function createObjectStore(config: Config['media']): ObjectStore {
  return config.store.kind === 's3'
    ? new S3ObjectStore(config.store)
    : new DirectoryObjectStore(config.store.dir);
}

export interface MediaView {
  id: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
  mimeType: typeof MEDIA_MIME_TYPE;
}

/** Where clients fetch a media object: the CDN or bucket base when set, else this API. */
export function mediaUrl(config: Pick<Config, 'media' | 'publicBaseUrl'>, id: string): string {
  return config.media.publicBaseUrl
    ? `${config.media.publicBaseUrl}/${mediaKey(id)}`
    : `${config.publicBaseUrl}/media/${id}`;
}

interface MediaRow {
  id: string;
  width: number;
  height: number;
  bytes: number;
  inserted: boolean;
}

/** The row, inserted unless it exists; `inserted` says which (201 or 200). */
const insertMedia = statement<
  MediaRow,
  [id: string, width: number, height: number, bytes: number, userId: number]
>(
  'media.insert',
  `with added as (
     insert into media (id, mime_type, width, height, bytes, created_by, created_at)
     values ($1, 'image/webp', $2, $3, $4, $5, now())
     on conflict (id) do nothing
     returning id, width, height, bytes)
   select id, width, height, bytes, true as inserted from added
   union all
   select id, width, height, bytes, false from media
    where id = $1 and not exists (select 1 from added)`,
);

export interface MediaDeps {
  config: Pick<Config, 'media' | 'publicBaseUrl'>;
  db: SqlPool;
  store: ObjectStore;
}

export async function uploadImage(
  deps: MediaDeps,
  userId: number,
  bytes: Buffer,
): Promise<{ created: boolean; media: MediaView }> {
  const image = await processImage(bytes);
  await deps.store.putIfAbsent(mediaKey(image.id), image.webp, MEDIA_MIME_TYPE);
  const row = await deps.db.row(insertMedia, [
    image.id,
    image.width,
    image.height,
    image.webp.length,
    userId,
  ]);
  if (!row) throw new Error(`media ${image.id}: neither inserted nor found`);
  return {
    created: row.inserted,
    media: {
      id: row.id,
      url: mediaUrl(deps.config, row.id),
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      mimeType: MEDIA_MIME_TYPE,
    },
  };
}

export const MEDIA_ID = /^[0-9a-f]{64}$/;

/** The stored WebP of a media id; 404 `media_not_found` for an unknown or malformed id. */
export async function readImage(deps: Pick<MediaDeps, 'store'>, id: string): Promise<Buffer> {
  const object = MEDIA_ID.test(id) ? await deps.store.get(mediaKey(id)) : null;
  if (!object) throw new AppError('media_not_found', `media ${id.slice(0, 64)}: does not exist`);
  return object.body;
}
