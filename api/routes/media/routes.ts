import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../access/actor';
import { takeQuota } from '../../access/bucket';
import { RateLimiter } from '../../access/rate-limiter';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import { AppError } from '../../../shared/errors';
import { createObjectStore, MEDIA_ID, MEDIA_MIME_TYPE, readImage, uploadImage } from './service';

/** At most this many bytes in the one file part (docs/spec/contract.md §14). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const HOUR_S = 3600;

const mediaSchema = z
  .object({
    id: z
      .string()
      .describe('SHA-256 of the stored WebP, lowercase hex: the same picture, the same id'),
    url: z.url().describe('Where the image is served; it never changes'),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int().describe('Size of the stored WebP'),
    mimeType: z.literal(MEDIA_MIME_TYPE),
  })
  .meta({ id: 'Media' });

const mediaParams = z.object({
  id: z.string().max(128).describe('The media id (64 lowercase hex digits)'),
});

/** The multipart plugin's refusals, as this API's codes and messages. */
function multipartRefusal(error: unknown): AppError | null {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', 'file: is larger than 5 MiB');
    case 'FST_FILES_LIMIT':
      return new AppError('invalid_request', 'file: send exactly one file');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('invalid_request', 'body: only one part, named file, is accepted');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'Content-Type: must be multipart/form-data');
    default:
      return null;
  }
}

/** The one file part's bytes; every other shape of body is refused. */
async function fileOf(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', 'Content-Type: must be multipart/form-data');
  }
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        throw new AppError(
          'invalid_request',
          `body: only one part, named file, is accepted (got field ${part.fieldname})`,
        );
      }
      if (part.fieldname !== 'file') {
        await part.toBuffer().catch(() => undefined);
        throw new AppError(
          'invalid_request',
          `body: the file part must be named file, not ${part.fieldname}`,
        );
      }
      file = await part.toBuffer();
    }
  } catch (error) {
    throw multipartRefusal(error) ?? error;
  }
  if (!file) {
    throw new AppError(
      'invalid_request',
      'file: is required (multipart/form-data with one part named file)',
    );
  }
  return file;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes `multipart/form-data` with one part, `file`, described so (OpenAPI). */
    multipartFile?: string;
  }
}

/** Media uploads and reads (docs/spec/contract.md §14, docs/guides/media.md). */
export const mediaRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, redis } = opts.deps;
  const store = createObjectStore(config.media);
  app.addHook('onClose', async () => store.close());
  const limiter = new RateLimiter(redis);
  // Scoped to these routes: multipart bodies are accepted here and nowhere else.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    // `parts: 2`: a second file is then refused as a second file, not as a part too many.
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 2, headerPairs: 32 },
  });

  app.post(
    '/media',
    {
      config: {
        auth: 'user',
        multipartFile: 'The image: PNG, JPEG, WebP or GIF, at most 5 MiB',
      },
      schema: {
        summary: 'Upload an image (PNG, JPEG, WebP, GIF) for a token or an agent',
        description:
          '`multipart/form-data` with one part, `file`, at most 5 MiB. The type is read from ' +
          'the bytes, never from the part’s header or name; SVG is not accepted. The image is ' +
          'stored as WebP, at most 1024 px on its longest side, upright and without metadata; ' +
          'its id is the SHA-256 of those bytes, so the same picture is stored once and its ' +
          'URL never changes: 201 the first time, 200 with the same body afterwards. ' +
          `${config.media.uploadsPerHour} uploads an hour per user (429 with Retry-After).`,
        errors: errors(
          'unsupported_media_type',
          'payload_too_large',
          'image_too_large',
          'image_too_small',
        ),
        tags: ['media'],
        response: { 200: mediaSchema, 201: mediaSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await takeQuota(limiter, {
        bucket: `media:user:${actor.userId}`,
        limit: config.media.uploadsPerHour,
        windowSeconds: HOUR_S,
        what: 'Upload limit',
      });
      const bytes = await fileOf(request);
      const { created, media } = await uploadImage({ config, db, store }, actor.userId, bytes);
      return reply.code(created ? 201 : 200).send(media);
    },
  );

  app.get(
    '/media/:id',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'An uploaded image (WebP), cacheable forever',
        description:
          'Public. The bytes never change for an id: `Cache-Control: public, ' +
          'max-age=31536000, immutable` and a strong `ETag`; `If-None-Match` answers 304.',
        errors: errors('media_not_found'),
        tags: ['media'],
        params: mediaParams,
        response: {
          200: {
            description: 'The WebP image',
            content: {
              [MEDIA_MIME_TYPE]: {
                schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }),
              },
            },
          },
          304: z.undefined().describe('The client’s copy (If-None-Match) is current; no body'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const etag = `"${id}"`;
      // An id is its bytes' hash: a client holding this ETag holds these bytes.
      const current = MEDIA_ID.test(id) && request.headers['if-none-match'] === etag;
      const body = current ? null : await readImage({ store }, id);
      // Set only now: an error must never be cached for a year. `nosniff` and a CSP of
      // `default-src 'none'` come with every response (api/plugins/security-headers.ts).
      void reply.headers({ 'cache-control': 'public, max-age=31536000, immutable', etag });
      if (!body) return reply.code(304).send(undefined);
      return reply.type(MEDIA_MIME_TYPE).send(body);
    },
  );
};
