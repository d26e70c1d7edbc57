import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../errors';

/**
 * The image pipeline of `POST /media` (docs/spec/contract.md §14): the type is read from the
 * bytes (PNG, JPEG, WebP, GIF; never the header or the name, and SVG is never even decoded),
 * the size is checked before any pixel is decoded, and the picture is re-encoded to WebP, at
 * most 1024 px on its longest side, upright (EXIF orientation applied) and without any
 * metadata (the re-encode writes none: EXIF, GPS and ICC blocks are gone, and so is whatever a
 * polyglot file hid). Its id is the SHA-256 of the WebP, so the same picture is one object.
 */

// libvips caches recent operations and their pixels for reuse; every upload here is a new
// image, so the cache only held memory (bench:media: the API's RSS grew with each upload).
sharp.cache(false);

export const MAX_SIDE_PX = 4096;
export const MIN_SIDE_PX = 64;
export const OUTPUT_MAX_SIDE_PX = 1024;
const WEBP_QUALITY = 85;

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** The formats accepted, by their first bytes (the files' own signatures). */
export function sniffImage(bytes: Buffer): ImageFormat | null {
  const starts = (signature: number[], at = 0) =>
    bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (
    starts([0x47, 0x49, 0x46, 0x38]) &&
    (bytes[4] === 0x37 || bytes[4] === 0x39) &&
    bytes[5] === 0x61
  )
    return 'gif';
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

export interface ProcessedImage {
  /** Lowercase hex SHA-256 of `webp`. */
  id: string;
  webp: Buffer;
  width: number;
  height: number;
}

/**
 * Decoding never takes more than this many input pixels (sharp's default lets a 600 KB PNG of
 * 196 megapixels take about 700 MB); headers that claim more fail before any pixel is read.
 */
const LIMIT_INPUT_PIXELS = MAX_SIDE_PX * MAX_SIDE_PX;

const refused = (
  code: 'unsupported_media_type' | 'image_too_large' | 'image_too_small' | 'invalid_request',
  message: string,
) => new AppError(code, `file: ${message}`);

/** Checks and re-encodes an upload; refusals are AppErrors with the §14 codes. */
export async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  const format = sniffImage(bytes);
  if (!format) {
    throw refused(
      'unsupported_media_type',
      'is not a PNG, JPEG, WebP or GIF image (the type is read from the bytes; SVG is not accepted)',
    );
  }
  const options = {
    limitInputPixels: LIMIT_INPUT_PIXELS,
    failOn: 'error' as const,
    // A GIF's first frame only.
    animated: false,
    sequentialRead: true,
  };
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw refused('invalid_request', `is not a readable ${format.toUpperCase()} image`);
  }
  if (metadata.format !== format) {
    throw refused(
      'unsupported_media_type',
      `its bytes start as ${format} but decode as ${metadata.format}`,
    );
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width > MAX_SIDE_PX || height > MAX_SIDE_PX) {
    throw refused(
      'image_too_large',
      `the image is ${width} × ${height} pixels; at most ${MAX_SIDE_PX} × ${MAX_SIDE_PX}`,
    );
  }
  if (width < MIN_SIDE_PX || height < MIN_SIDE_PX) {
    throw refused(
      'image_too_small',
      `the image is ${width} × ${height} pixels; at least ${MIN_SIDE_PX} on each side`,
    );
  }
  let output: { data: Buffer; info: sharp.OutputInfo };
  try {
    output = await sharp(bytes, options)
      // EXIF orientation applied to the pixels: the output carries no metadata to say it.
      .rotate()
      .resize(OUTPUT_MAX_SIDE_PX, OUTPUT_MAX_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) {
      throw refused(
        'image_too_large',
        `the image would decode to more than ${MAX_SIDE_PX} × ${MAX_SIDE_PX} pixels`,
      );
    }
    throw refused(
      'invalid_request',
      `is not a readable ${format.toUpperCase()} image (truncated or corrupt)`,
    );
  }
  return {
    id: createHash('sha256').update(output.data).digest('hex'),
    webp: output.data,
    width: output.info.width,
    height: output.info.height,
  };
}
