import { z } from 'zod';
import type { Config } from '../../../shared/config';
import { statement, type Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import { mediaUrl } from './service';

/**
 * `imageMediaId` beside `imageUrl` on tokens and agents (docs/spec/contract.md §14): an image
 * uploaded with `POST /media`, stored as the URL the upload answered, which never changes.
 */
export const imageMediaIdField = z
  .string()
  .regex(/^[0-9a-f]{64}$/, {
    error: 'must be a media id (64 lowercase hex digits, from POST /media)',
  })
  .describe('An image uploaded with POST /media, instead of imageUrl: its url becomes imageUrl');

const mediaExists = statement<{ id: string }, [id: string]>(
  'media.exists',
  'select id from media where id = $1',
);

/**
 * The image URL a create or update stores: `imageUrl` as given (undefined: unchanged), or the
 * URL of the uploaded image `imageMediaId` names. Both at once, or an id nobody uploaded, is
 * 400 `invalid_request` naming the field.
 */
export async function imageUrlOf(
  sql: Sql,
  config: Pick<Config, 'media' | 'publicBaseUrl'>,
  input: { imageUrl?: string | null; imageMediaId?: string | null },
): Promise<string | null | undefined> {
  if (input.imageMediaId == null) return input.imageUrl;
  if (input.imageUrl != null) {
    throw new AppError('invalid_request', 'imageMediaId: send imageUrl or imageMediaId, not both');
  }
  if (!(await sql.row(mediaExists, [input.imageMediaId]))) {
    throw new AppError(
      'invalid_request',
      `imageMediaId: no image was uploaded with id ${input.imageMediaId} (POST /media)`,
    );
  }
  return mediaUrl(config, input.imageMediaId);
}
