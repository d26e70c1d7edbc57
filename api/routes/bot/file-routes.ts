import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { claimIdempotencyKey } from '../../plugins/idempotency';
import { BotError } from './errors';
import {
  checkFileUrl,
  checkRoom,
  fileLimit,
  postFile,
  resolveFile,
  type FileDeps,
  type FileKind,
  type FileSource,
} from './files';
import {
  botErrorSchema,
  botErrors,
  idempotencyHeaders,
  sendDocumentBody,
  sendFileResult,
  sendPhotoBody,
} from './schemas';
import { parseFields, readMultipartForm, type UploadedPart } from './upload';

/**
 * `POST /api/v1/sendPhoto` and `/sendDocument` (docs/bot-gateway.md): JSON with a URL or a
 * `media_id`, or multipart/form-data with the file. Registered in their own scope, so only
 * these two routes take multipart bodies.
 */

/** Files read or fetched at once by this process; each may hold up to 50 MiB in memory. */
export const FILE_REQUESTS_IN_FLIGHT = 4;
let inFlight = 0;

/** Either route's fields (the URL field of the other route never present). */
type FileBody = z.output<typeof sendPhotoBody> & Partial<z.output<typeof sendDocumentBody>>;

const ROUTES: Record<
  FileKind,
  { path: string; schema: typeof sendPhotoBody | typeof sendDocumentBody; urlField: string }
> = {
  photo: { path: '/sendPhoto', schema: sendPhotoBody, urlField: 'photo_url' },
  document: { path: '/sendDocument', schema: sendDocumentBody, urlField: 'document_url' },
};

/** Exactly one source: the file part, the URL or the media_id. */
function sourceCount(kind: FileKind, body: FileBody, hasFile: boolean): void {
  const { urlField } = ROUTES[kind];
  const url = kind === 'photo' ? body.photo_url : body.document_url;
  const given = [hasFile, url !== undefined, body.media_id !== undefined].filter(Boolean).length;
  if (given !== 1) {
    throw new BotError(
      'invalid_body',
      `body: give exactly one of file (a multipart part), ${urlField} and media_id` +
        (given === 0 ? '' : ` (${given} were given)`),
    );
  }
}

async function sendFile(
  deps: FileDeps,
  kind: FileKind,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const bot = request.botCaller;
  if (!bot) throw new Error('bot route without a bot caller');
  const { schema } = ROUTES[kind];
  const limit = await fileLimit(deps, kind);

  /** Every check that needs no file: the fields, the sources, the URL's host, the room. */
  const prepare = async (fields: unknown, hasFile: boolean): Promise<FileBody> => {
    const body: FileBody = parseFields(schema, fields);
    sourceCount(kind, body, hasFile);
    const url = kind === 'photo' ? body.photo_url : body.document_url;
    if (url !== undefined) await checkFileUrl(deps, ROUTES[kind].urlField, url);
    await checkRoom(deps, body.room_id);
    return body;
  };

  let body: FileBody;
  let file: UploadedPart | null = null;
  if (request.isMultipart()) {
    let prepared: FileBody | null = null;
    const form = await readMultipartForm(request, {
      ...limit,
      beforeFile: async (fields) => {
        prepared = await prepare(fields, true);
      },
    });
    file = form.file;
    body = prepared ?? (await prepare(form.fields, false));
  } else {
    if (request.body === undefined || request.body === null) {
      throw new BotError(
        'invalid_body',
        'body: is required, as JSON or as multipart/form-data with the file',
      );
    }
    body = await prepare(request.body, false);
  }

  const url = kind === 'photo' ? body.photo_url : body.document_url;
  const source: FileSource = file
    ? { kind: 'bytes', bytes: file.bytes, filename: file.filename }
    : url !== undefined
      ? { kind: 'url', url }
      : { kind: 'media', mediaId: body.media_id ?? '' };
  // What the request asks, for its Idempotency-Key: the fields and the file's content.
  const fileHash = file ? createHash('sha256').update(file.bytes).digest('hex') : null;
  if (await claimIdempotencyKey(request, reply, { body, file: fileHash })) return reply;

  const stored = await resolveFile(deps, bot, kind, source, {
    maxBytes: limit.maxBytes,
    filename: body.filename,
  });
  const key = request.headers['idempotency-key'];
  return postFile(deps, kind, body, stored, typeof key === 'string' ? key : undefined);
}

const DESCRIPTIONS: Record<FileKind, { summary: string; description: string }> = {
  photo: {
    summary: 'Send a photo (PNG, JPEG, GIF, WebP) to a room as the bot',
    description:
      'Exactly one source: a `multipart/form-data` part `file` (after the other fields), an ' +
      'https `photo_url` the gateway fetches (public addresses only, up to 3 redirects, each ' +
      'checked again), or the `media_id` of an earlier answer (no new upload). At most 10 MiB ' +
      'and 32 megapixels, and never more than the homeserver takes; the type is read from the ' +
      'bytes (SVG is refused: send it with sendDocument). Clients get an `m.image` with ' +
      'mimetype, size, width and height; `caption` is its text (markdown as in sendMessage). ' +
      'The same file from the same bot token is uploaded once. An `Idempotency-Key` makes a ' +
      'retry safe: the same answer, one upload and one message.',
  },
  document: {
    summary: 'Send a file to a room as the bot',
    description:
      'As sendPhoto, with `document_url`, any type of file (its type read from the bytes, ' +
      'else `application/octet-stream`) and at most 50 MiB. Clients get an `m.file` with ' +
      'its `filename`: the `filename` field, else the part’s or the URL’s name.',
  },
};

export async function fileRoutes(app: FastifyInstance, deps: FileDeps): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of ['photo', 'document'] as const) {
    const { path, schema } = ROUTES[kind];
    typed.post(
      path,
      {
        config: {
          auth: 'bot',
          idempotencyInHandler: true,
          multipartFile:
            kind === 'photo'
              ? 'The image (multipart only): PNG, JPEG, GIF or WebP, at most 10 MiB'
              : 'The file (multipart only), at most 50 MiB',
        },
        schema: {
          ...DESCRIPTIONS[kind],
          tags: ['bot gateway'],
          headers: idempotencyHeaders,
          // Validated here as JSON; a multipart body is read and validated by the handler.
          body: schema.nullish(),
          response: { 200: sendFileResult, '4xx': botErrorSchema, '5xx': botErrorSchema },
          errors: botErrors(
            'forbidden',
            'room_not_found',
            'media_not_found',
            'file_too_large',
            'unsupported_media_type',
            'rate_limited',
            'send_failed',
            'fetch_failed',
          ),
        },
      },
      async (request, reply) => {
        if (inFlight >= FILE_REQUESTS_IN_FLIGHT) {
          throw new BotError(
            'rate_limited',
            `The gateway is handling ${FILE_REQUESTS_IN_FLIGHT} files already; retry after 1 s.`,
            { 'retry-after': '1' },
          );
        }
        inFlight++;
        try {
          return await sendFile({ ...deps, logger: request.log }, kind, request, reply);
        } finally {
          inFlight--;
        }
      },
    );
  }
}
