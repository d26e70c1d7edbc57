import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The direct room the bot opened with a Matrix account (created with the account invited on the
 * first notification), so every later notification goes to the same room.
 */
export const MatrixDirectRoom = defineEntity({
  name: 'MatrixDirectRoom',
  tableName: 'matrix_direct_rooms',
  properties: {
    matrixUserId: p.string().length(255).primary(),
    roomId: p.string().length(255),
    createdAt: p
      .datetime(3)
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});

export type MatrixDirectRoom = InferEntity<typeof MatrixDirectRoom>;
