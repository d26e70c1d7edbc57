import { z } from 'zod';
import type { Config } from '../../../shared/config';
import { statement, type Sql } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { tokenNotFound } from './access';
import { tokenLinksSchema, type TokenSlugInput } from './schemas';

/**
 * `GET /tokens/:slug/metadata.json` (docs/spec/contract.md §14): the token in the fields the
 * Metaplex and OpenSea metadata standards share, for wallets, explorers and launchpads that
 * take a metadata URI. Public; one statement.
 */

export const tokenMetadataSchema = z
  .object({
    name: z.string(),
    symbol: z.string().describe('The ticker'),
    description: z.string().describe('The description, else the brief, else empty'),
    image: z.string().describe('The image URL, empty when there is none'),
    external_url: z
      .string()
      .describe('The token’s website, else its page on this API (GET /tokens/:slug)'),
    properties: z.object({
      files: z
        .array(z.object({ uri: z.string(), type: z.string().describe('MIME type') }))
        .describe('The image, when there is one'),
      category: z.literal('image'),
    }),
    links: tokenLinksSchema,
  })
  .meta({
    id: 'TokenMetadata',
    examples: [
      {
        name: 'Atlas',
        symbol: 'ATLAS',
        description: 'Atlas funds community research; holders share 5 % of its agents’ earnings.',
        image:
          'https://api.example.com/media/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        external_url: 'https://atlas.example.com',
        properties: {
          files: [
            {
              uri: 'https://api.example.com/media/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
              type: 'image/webp',
            },
          ],
          category: 'image',
        },
        links: {
          website: 'https://atlas.example.com',
          twitter: 'https://x.com/atlas',
          telegram: null,
        },
      },
    ],
  });

interface MetadataRow {
  slug: string;
  name: string;
  ticker: string;
  description: string | null;
  imageUrl: string | null;
  website: string | null;
  twitter: string | null;
  telegram: string | null;
}

const tokenMetadataStatement = statement<MetadataRow, [slug: string]>(
  'tokens.metadata',
  `select slug, name, ticker, coalesce(description, brief) as description,
          image_url as "imageUrl", link_website as website, link_twitter as twitter,
          link_telegram as telegram
     from tokens where slug = $1`,
);

// Our uploads are WebP (`/media/<id>`, or `media/<id>.webp` under MEDIA_PUBLIC_BASE_URL).
const UPLOADED = /\/media\/[0-9a-f]{64}(?:\.webp)?$/;
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The MIME type of an image URL: ours are WebP, others go by their extension. */
function imageType(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'application/octet-stream';
  }
  if (UPLOADED.test(path)) return 'image/webp';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}

export async function tokenMetadata(
  deps: { db: Sql; config: Pick<Config, 'publicBaseUrl'> },
  _actor: Actor | null,
  input: TokenSlugInput,
): Promise<z.infer<typeof tokenMetadataSchema>> {
  const row = looksLikeSlug(input.slug)
    ? await deps.db.row(tokenMetadataStatement, [input.slug])
    : undefined;
  if (!row) throw tokenNotFound(input.slug);
  const image = row.imageUrl ?? '';
  return {
    name: row.name,
    symbol: row.ticker,
    description: row.description ?? '',
    image,
    external_url: row.website ?? `${deps.config.publicBaseUrl}/tokens/${row.slug}`,
    properties: {
      files: image ? [{ uri: image, type: imageType(image) }] : [],
      category: 'image',
    },
    links: { website: row.website, twitter: row.twitter, telegram: row.telegram },
  };
}
