import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BotError } from './errors';

/**
 * The `multipart/form-data` form of sendPhoto and sendDocument: the fields first, the file last
 * in a part named `file`. The fields are checked when the file part begins (`beforeFile`), so a
 * request that would be refused (a bad field, a room the bot is not in) is answered before the
 * file is read. The file is read whole (the homeserver needs its length) up to `maxBytes`.
 */

/** The longest field: a caption of 40,000 characters in UTF-8, with room to spare. */
const FIELD_MAX_BYTES = 256 * 1024;
const MAX_FIELDS = 10;

export interface UploadedPart {
  bytes: Buffer;
  /** The part's file name, reduced to a safe base name; null when it gave none. */
  filename: string | null;
}

export interface MultipartForm {
  fields: Record<string, unknown>;
  file: UploadedPart | null;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** A refusal of the multipart plugin, as the gateway's error. */
function multipartRefusal(error: unknown, maxBytes: number, limitName: string): BotError | null {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new BotError('file_too_large', `file: is larger than ${mib(maxBytes)} ${limitName}`);
    case 'FST_FILES_LIMIT':
      return new BotError('invalid_body', 'file: send exactly one file part');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new BotError('invalid_body', `body: at most ${MAX_FIELDS} fields and one file`);
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new BotError('invalid_body', 'body: is not valid multipart/form-data');
    default:
      return null;
  }
}

/** A field's text as the JSON form would carry it (`markdown` is a boolean there). */
function fieldValue(name: string, value: string): unknown {
  if (name === 'markdown' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The name a client saves the file under: no directories, no control characters, ≤ 255. */
export function safeFilename(name: string | null | undefined): string | null {
  if (!name) return null;
  const printable = [...name].filter((char) => {
    const code = char.charCodeAt(0);
    return code >= 0x20 && code !== 0x7f;
  });
  const base = basename(printable.join('').replaceAll('\\', '/')).trim();
  if (!base || base === '.' || base === '..') return null;
  return [...base].slice(0, 255).join('');
}

export async function readMultipartForm(
  request: FastifyRequest,
  options: {
    maxBytes: number;
    /** Says which limit `maxBytes` is, for the 413's detail ("(photos)", "(the homeserver's)"). */
    limitName: string;
    beforeFile: (fields: Record<string, unknown>) => Promise<void>;
  },
): Promise<MultipartForm> {
  const fields: Record<string, unknown> = {};
  let file: UploadedPart | null = null;
  try {
    const parts = request.parts({
      limits: {
        fileSize: options.maxBytes,
        files: 1,
        fields: MAX_FIELDS,
        fieldSize: FIELD_MAX_BYTES,
        // One more than fields and file, so that a second file is refused as a second file.
        parts: MAX_FIELDS + 2,
        headerPairs: 32,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (file) {
          throw new BotError(
            'invalid_body',
            `${part.fieldname}: send every field before the file part`,
          );
        }
        if (Object.hasOwn(fields, part.fieldname)) {
          throw new BotError('invalid_body', `${part.fieldname}: is given twice`);
        }
        if (part.valueTruncated) {
          throw new BotError('invalid_body', `${part.fieldname}: is too long`);
        }
        fields[part.fieldname] = fieldValue(part.fieldname, String(part.value));
        continue;
      }
      try {
        if (part.fieldname !== 'file') {
          throw new BotError(
            'invalid_body',
            `${part.fieldname}: is not a known field (the file part is named file)`,
          );
        }
        await options.beforeFile(fields);
      } catch (error) {
        // Refused before the file is read: its bytes are let through unread, so the request
        // ends and the client gets the answer (api/plugins/errors.ts drains the rest).
        part.file.resume();
        throw error;
      }
      file = { bytes: await part.toBuffer(), filename: safeFilename(part.filename) };
    }
  } catch (error) {
    throw multipartRefusal(error, options.maxBytes, options.limitName) ?? error;
  }
  return { fields, file };
}

/** Validates fields with the JSON form's schema; the detail names each field as 400s do. */
export function parseFields<T extends z.ZodType>(schema: T, fields: unknown): z.output<T> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `${issue.keys.join(', ')}: is not a known field`;
    }
    const field = issue.path.join('.') || 'body';
    const message = /received undefined$/.test(issue.message) ? 'is required' : issue.message;
    return `${field}: ${message}`;
  });
  throw new BotError('invalid_body', details.join('; '));
}
