import { sniffImage } from './images';

/**
 * The media type of a file read from its bytes, never from a header or a name (bot gateway
 * documents, docs/bot-gateway.md): the signatures of the common formats, then text (valid
 * UTF-8 without control bytes other than whitespace), else `application/octet-stream`.
 */

const IMAGE_TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;

const SIGNATURES: { type: string; bytes: number[]; at?: number }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/gzip', bytes: [0x1f, 0x8b] },
  { type: 'application/x-7z-compressed', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { type: 'audio/ogg', bytes: [0x4f, 0x67, 0x67, 0x53] },
  { type: 'audio/mpeg', bytes: [0x49, 0x44, 0x33] },
  { type: 'audio/flac', bytes: [0x66, 0x4c, 0x61, 0x43] },
  // ISO base media (`ftyp` at 4): MP4, MOV, HEIC; named as MP4, the common case.
  { type: 'video/mp4', bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
  { type: 'video/webm', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
];

/** How much of a file is looked at to call it text. */
const TEXT_SAMPLE_BYTES = 8192;

/** The image type of a photo (PNG, JPEG, GIF, WebP), or null. */
export function imageMimeType(bytes: Buffer): string | null {
  const format = sniffImage(bytes);
  return format ? IMAGE_TYPES[format] : null;
}

export function sniffMimeType(bytes: Buffer): string {
  const image = imageMimeType(bytes);
  if (image) return image;
  for (const { type, bytes: signature, at = 0 } of SIGNATURES) {
    if (
      bytes.length >= at + signature.length &&
      signature.every((byte, i) => bytes[at + i] === byte)
    ) {
      return type;
    }
  }
  return looksLikeText(bytes) ? 'text/plain' : 'application/octet-stream';
}

function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  // Cut at a character boundary: a multi-byte character split by the sample is not binary.
  let end = Math.min(bytes.length, TEXT_SAMPLE_BYTES);
  while (end < bytes.length && end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const sample = bytes.subarray(0, end);
  for (const byte of sample) {
    // Control bytes other than tab, newline, form feed and carriage return.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) {
      return false;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return true;
  } catch {
    return false;
  }
}
