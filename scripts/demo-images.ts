import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { processImage } from '../shared/media/images';
import type { ObjectStore } from '../shared/media/store';
import { MEDIA_MIME_TYPE, mediaKey } from '../api/routes/media/service';

/**
 * Pictures for the demo tokens and agents of `npm run seed`, drawn here so the seed needs no
 * network and no image files in the repository: a disc in two colours on a dark ground, rings
 * around it, all derived from the slug (the same slug draws the same picture on every run).
 * They go through the upload pipeline (`processImage`) and into the object store as `POST
 * /media` would put them.
 */

const SIZE = 512;

/** An sRGB colour as `#rrggbb` from hue (degrees), saturation and lightness (0..1). */
function hsl(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** The demo picture of `slug`, as a PNG. */
export async function demoPicture(slug: string): Promise<Buffer> {
  const seed = createHash('sha256').update(slug).digest();
  const hue = (seed[0]! / 255) * 360;
  const second = (hue + 60 + (seed[1]! / 255) * 120) % 360;
  const rings = 2 + (seed[2]! % 3);
  const circles = Array.from({ length: rings }, (_, index) => {
    const radius = 200 + index * 16;
    return `<circle cx="256" cy="256" r="${radius}" fill="none" stroke="${hsl(second, 0.6, 0.6)}" stroke-opacity="${0.5 - index * 0.1}" stroke-width="4"/>`;
  }).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${hsl(hue, 0.7, 0.6)}"/>` +
    `<stop offset="1" stop-color="${hsl(second, 0.7, 0.4)}"/></linearGradient></defs>` +
    `<rect width="${SIZE}" height="${SIZE}" fill="${hsl(second, 0.3, 0.12)}"/>` +
    `${circles}<circle cx="256" cy="256" r="170" fill="url(#g)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface DemoImage {
  id: string;
  width: number;
  height: number;
  bytes: number;
}

/** The demo picture of `slug`, processed and stored as an upload of it would be. */
export async function storeDemoPicture(store: ObjectStore, slug: string): Promise<DemoImage> {
  const image = await processImage(await demoPicture(slug));
  await store.putIfAbsent(mediaKey(image.id), image.webp, MEDIA_MIME_TYPE);
  return { id: image.id, width: image.width, height: image.height, bytes: image.webp.length };
}
