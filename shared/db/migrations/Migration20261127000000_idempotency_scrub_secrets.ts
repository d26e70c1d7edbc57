import { Migration } from '@mikro-orm/migrations';

/**
 * Responses of secret-bearing routes are now stored sealed (docs/decisions.md
 * "Idempotency"). Records those routes stored in plaintext before (at most 24 h old) lose
 * their body: a body that is not sealed never replays on those routes, so each of these
 * records answers 409 `idempotency_replay_unavailable` until it expires, and the raw keys and
 * signing secrets in them are gone at once rather than after 24 h. Paths as the idempotency
 * plugin records them (the request path without its query).
 */
export const SCRUB_PLAINTEXT_SECRET_RESPONSES = `
  update idempotency_keys set response_body = ''
   where method = 'POST' and response_body is not null and response_body not like 'v1.%'
     and (path in ('/me/api-keys', '/agents', '/me/webhooks', '/auth/verify')
          or path ~ '^/me/api-keys/[^/]+/roll$')`;

export class Migration20261127000000_idempotency_scrub_secrets extends Migration {
  override up(): void {
    this.addSql(SCRUB_PLAINTEXT_SECRET_RESPONSES);
  }

  override down(): void {
    // The plaintext is gone for good; nothing to restore.
  }
}
