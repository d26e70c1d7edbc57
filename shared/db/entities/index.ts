import { ApiKey } from './api-key';
import { ApiKeyUsage } from './api-key-usage';
import { IdempotencyKey } from './idempotency-key';
import { Session } from './session';
import { User } from './user';

export { ApiKey } from './api-key';
export { ApiKeyUsage } from './api-key-usage';
export { IdempotencyKey } from './idempotency-key';
export { Session } from './session';
export { User } from './user';

/** Every entity, registered explicitly (no folder scanning, works the same from ts and js). */
export const entities = [User, IdempotencyKey, Session, ApiKey, ApiKeyUsage];
