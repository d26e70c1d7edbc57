import sharp from 'sharp';
import { safeFilename } from '../../api/routes/bot/upload';
import { imageMimeType, sniffMimeType } from '../../shared/media/file-type';

/**
 * What the bot gateway's file routes read from a file's bytes (shared/media/file-type.ts) and
 * the names it lets clients save files under (api/routes/bot/upload.ts).
 */

describe('sniffMimeType', () => {
  it('names the image types by their signatures, whatever the name or header said', async () => {
    const solid = sharp({ create: { width: 8, height: 8, channels: 3, background: 'teal' } });
    expect(sniffMimeType(await solid.clone().png().toBuffer())).toBe('image/png');
    expect(sniffMimeType(await solid.clone().jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffMimeType(await solid.clone().gif().toBuffer())).toBe('image/gif');
    expect(sniffMimeType(await solid.clone().webp().toBuffer())).toBe('image/webp');
  });

  it('names documents by their signatures', () => {
    expect(sniffMimeType(Buffer.from('%PDF-1.7\n...'))).toBe('application/pdf');
    expect(sniffMimeType(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toBe(
      'application/zip',
    );
    expect(sniffMimeType(Buffer.from([0x1f, 0x8b, 0x08, 0x00]))).toBe('application/gzip');
    expect(sniffMimeType(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0', 'latin1'))).toBe('video/mp4');
  });

  it('calls UTF-8 text text/plain, also when a character is cut by the sample', () => {
    expect(sniffMimeType(Buffer.from('date,price\n2026-11-29,1.25\n'))).toBe('text/plain');
    expect(sniffMimeType(Buffer.from(`a${'é'.repeat(5000)}`))).toBe('text/plain');
    // An SVG sent as a document is text, never an image.
    expect(sniffMimeType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      'text/plain',
    );
  });

  it('calls anything else application/octet-stream', () => {
    expect(sniffMimeType(Buffer.from([0x00, 0x01, 0x02, 0xff]))).toBe('application/octet-stream');
    expect(sniffMimeType(Buffer.from([0xc3, 0x28]))).toBe('application/octet-stream');
    expect(sniffMimeType(Buffer.alloc(0))).toBe('application/octet-stream');
  });

  it('imageMimeType is null for what is not a photo', () => {
    expect(imageMimeType(Buffer.from('<svg/>'))).toBeNull();
    expect(imageMimeType(Buffer.from('%PDF-1.7'))).toBeNull();
  });
});

describe('safeFilename', () => {
  it('keeps the base name only, without control characters, at most 255 characters', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(safeFilename('re\u0000port\u001b.pdf')).toBe('report.pdf');
    expect(safeFilename(`${'a'.repeat(300)}.pdf`)).toHaveLength(255);
  });

  it('is null for no name, or one that is only a path', () => {
    expect(safeFilename(undefined)).toBeNull();
    expect(safeFilename('')).toBeNull();
    expect(safeFilename('..')).toBeNull();
    expect(safeFilename('/')).toBeNull();
  });
});
