import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { processImage, sniffImage } from '../../shared/media/images';
import { AppError } from '../../shared/errors';
import { claimedPng } from '../helpers/images';

/**
 * The image pipeline of `POST /media` (shared/media/images.ts), on images made here with sharp:
 * the accepted formats come out as upright WebP without metadata, named by their SHA-256; what
 * is not an accepted image, too large, too small or broken is refused with its §14 code.
 */

const solid = (width: number, height: number, background = 'teal') =>
  sharp({ create: { width, height, channels: 3, background } });

async function refusal(bytes: Buffer): Promise<{ code: string; message: string }> {
  try {
    await processImage(bytes);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the image was accepted');
}

describe('accepted images', () => {
  it('re-encodes a PNG to WebP named by the SHA-256 of the WebP', async () => {
    const image = await processImage(await solid(200, 100).png().toBuffer());
    expect(image).toMatchObject({ width: 200, height: 100 });
    expect(image.id).toBe(createHash('sha256').update(image.webp).digest('hex'));
    expect((await sharp(image.webp).metadata()).format).toBe('webp');
  });

  it('turns a JPEG upright by its EXIF orientation and drops EXIF and GPS', async () => {
    const jpeg = await solid(300, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const input = await sharp(jpeg).metadata();
    expect(input).toMatchObject({ orientation: 6, width: 300, height: 200 });
    expect(input.exif?.length).toBeGreaterThan(0);

    const image = await processImage(jpeg);
    const output = await sharp(image.webp).metadata();
    // Orientation 6 is a quarter turn: the stored picture is 200 wide, 300 high.
    expect({ width: output.width, height: output.height }).toEqual({ width: 200, height: 300 });
    expect(output.orientation).toBeUndefined();
    expect(output.exif).toBeUndefined();
    expect(output.icc).toBeUndefined();
    expect(output.xmp).toBeUndefined();
  });

  it('keeps the first frame of an animated GIF, and takes a WebP', async () => {
    const frames = await Promise.all(
      ['red', 'blue'].map((colour) => solid(120, 90, colour).png().toBuffer()),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(2);
    const fromGif = await processImage(gif);
    expect(fromGif).toMatchObject({ width: 120, height: 90 });
    const output = await sharp(fromGif.webp, { animated: true }).metadata();
    expect(output.pages ?? 1).toBe(1);
    const { channels } = await sharp(fromGif.webp).stats();
    // Red, not blue: the first frame.
    expect(channels[0]!.mean).toBeGreaterThan(200);
    expect(channels[2]!.mean).toBeLessThan(60);

    const webp = await processImage(await solid(100, 100).webp().toBuffer());
    expect(webp).toMatchObject({ width: 100, height: 100 });
  });

  it('scales the longest side down to 1024 px, never up', async () => {
    expect(await processImage(await solid(2048, 1024).png().toBuffer())).toMatchObject({
      width: 1024,
      height: 512,
    });
    expect(await processImage(await solid(64, 64).png().toBuffer())).toMatchObject({
      width: 64,
      height: 64,
    });
  });

  it('gives the same bytes the same id', async () => {
    const png = await solid(150, 150).png().toBuffer();
    expect((await processImage(png)).id).toBe((await processImage(Buffer.from(png))).id);
  });
});

describe('refused uploads', () => {
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script></svg>',
  );

  it.each([
    ['an SVG', svg],
    ['an SVG with an XML declaration', Buffer.concat([Buffer.from('<?xml version="1.0"?>'), svg])],
    ['an HTML page', Buffer.from('<!doctype html><html><body>hi</body></html>')],
    ['empty bytes', Buffer.alloc(0)],
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n')],
  ])('refuses %s as unsupported_media_type', async (_what, bytes) => {
    expect(await refusal(bytes)).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('refuses a 20,000 × 20,000 PNG of a few KB by its header, without decoding it', async () => {
    const png = claimedPng(20_000, 20_000);
    expect(png.length).toBeLessThan(4096);
    expect(sniffImage(png)).toBe('png');
    const before = process.memoryUsage().rss;
    expect(await refusal(png)).toEqual({
      code: 'image_too_large',
      message: 'file: the image is 20000 × 20000 pixels; at most 4096 × 4096',
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses a real image wider than 4096 px', async () => {
    const png = await solid(5000, 100).png().toBuffer();
    expect(await refusal(png)).toMatchObject({ code: 'image_too_large' });
  });

  it('refuses an image under 64 px a side', async () => {
    expect(await refusal(await solid(32, 200).png().toBuffer())).toEqual({
      code: 'image_too_small',
      message: 'file: the image is 32 × 200 pixels; at least 64 on each side',
    });
  });

  it('refuses a truncated JPEG as unreadable', async () => {
    const jpeg = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: 'gray',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg()
      .toBuffer();
    const { code, message } = await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(code).toBe('invalid_request');
    expect(message).toMatch(/^file: is not a readable JPEG image/);
  });
});
