import { IdempotencyKey } from './idempotency-key';
import { User } from './user';

export { IdempotencyKey } from './idempotency-key';
export { User } from './user';

/** Every entity, registered explicitly (no folder scanning, works the same from ts and js). */
export const entities = [User, IdempotencyKey];
