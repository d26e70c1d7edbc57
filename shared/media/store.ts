import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';

/**
 * Where uploaded media live (docs/spec/contract.md §14): an S3-compatible object store, or a
 * directory in development. Keys are content-addressed by their callers, so an object, once
 * stored, is never overwritten or deleted: a second put of a key finds it and stores nothing.
 */
export interface ObjectStore {
  /** Stores `body` under `key` unless an object is there; true when this call stored it. */
  putIfAbsent(key: string, body: Buffer, contentType: string): Promise<boolean>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Releases connections (app close). */
  close(): void;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

/** Keys are lowercase paths of safe characters, never `..`: a directory store joins them. */
const KEY = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;

function checkKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`object store: invalid key ${JSON.stringify(key)}`);
}

export interface S3StoreOptions {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/**
 * An S3-compatible store through `@aws-sdk/client-s3`: path-style addressing (what
 * S3-compatible servers serve), and checksums only where an operation requires them (recent
 * SDKs send CRC32 headers by default, which some S3-compatible servers reject).
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3StoreOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: true,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async putIfAbsent(key: string, body: Buffer, contentType: string): Promise<boolean> {
    checkKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
          // Never overwrite: a store that honours it answers 412 when the key exists.
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      // 412: there already; 409: a concurrent put of the same key is in flight.
      if (statusOf(error) === 412 || statusOf(error) === 409) return false;
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    checkKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key }),
      );
      const body = Buffer.from(await answer.Body!.transformToByteArray());
      return { body, contentType: answer.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /** Whether the bucket answers with these credentials (readiness). */
  async check(): Promise<void> {
    try {
      await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: 'readiness-probe' }),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/** Content types of the directory store, by the key's extension. */
const TYPES: Record<string, string> = { webp: 'image/webp', json: 'application/json' };

/**
 * A directory as the store (development): each object a file under `root`, written to a
 * temporary name and linked into place, so a reader never sees half a file and an existing
 * object is never replaced (`link` refuses an existing name).
 */
export class DirectoryObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  close(): void {
    // Nothing held between calls.
  }

  async putIfAbsent(key: string, body: Buffer): Promise<boolean> {
    checkKey(key);
    const path = join(this.root, key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, body);
    try {
      await link(temporary, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    checkKey(key);
    const path = join(this.root, key);
    try {
      if (!(await stat(path)).isFile()) return null;
      const extension = key.slice(key.lastIndexOf('.') + 1);
      return {
        body: await readFile(path),
        contentType: TYPES[extension] ?? 'application/octet-stream',
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}
