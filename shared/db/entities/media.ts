import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An uploaded image (docs/spec/contract.md §14): its id is the SHA-256 of the stored WebP, so
 * one picture is one row and one object (`media/<id>.webp`) however often it is uploaded.
 * Rows are never updated or deleted: a URL handed out stays valid.
 */
export const Media = defineEntity({
  name: 'Media',
  tableName: 'media',
  properties: {
    /** Lowercase hex SHA-256 of the stored bytes. */
    id: p.string().length(64).primary(),
    mimeType: p.text(),
    width: p.integer(),
    height: p.integer(),
    bytes: p.integer(),
    /** The user whose upload stored it first. */
    createdBy: p.integer(),
    createdAt: p.datetime(3),
  },
});

export type Media = InferEntity<typeof Media>;
