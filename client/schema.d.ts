/**
 * GENERATED FILE: do not edit. `npm run client:generate` (scripts/client-generate.ts) writes
 * it with openapi-typescript from client/openapi.json, the OpenAPI document built from the
 * route schemas; `npm run client:check` fails while it is out of date.
 */

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where to start: links to the API reference, the OpenAPI document and guides
         * @description JSON, or a small HTML page when `Accept` prefers `text/html`. No credentials read, no rate limit.
         */
        get: operations["get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a draft agent (its endpointSecret is in this response only)
         * @description A draft: not listed until POST /agents/{slug}/publish. `endpointUrl` is where the platform calls the agent (https, a public address; docs/guides/agent-endpoint.md); every call is signed with `endpointSecret`, shown in this response only. The slug derives from the name unless given.
         */
        post: operations["postAgents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an agent’s name, description, tags, image, endpoint or premium flag (owner)
         * @description Only the fields sent change; a new `endpointUrl` passes the same checks as at creation. Prices change with POST /agents/{slug}/publish.
         */
        patch: operations["patchAgentsBySlug"];
        trace?: never;
    };
    "/agents/{slug}/invoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Call an agent; FLOW is charged only when the call succeeds
         * @description A premium agent (premium: true) answers only callers whose tier has premiumAgents (pro, max) and its owner; anyone else gets 403 feature_not_in_tier before anything is charged or the agent is called.
         */
        post: operations["postAgentsBySlugInvoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish an agent with a monetization model and tags (owner)
         * @description per_call: every call pays perCallPriceFlow. subscription: subscribers pay subscriptionFlowPerMonth and call at no base price. hybrid: both offered; subscribers call at no base price, others pay per call. freemium: freemiumDailyCalls free calls per caller and UTC day, then perCallPriceFlow if set, else refused. Tool prices stack on every model. premium: true limits calls (and subscriptions) to the owner and callers with the pro or max tier; omitted keeps it.
         */
        post: operations["postAgentsBySlugPublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate an agent 1 to 5 (callers with a succeeded call; rating again replaces)
         * @description Only callers with at least one succeeded call may rate, and never the owner; rating again replaces the earlier rating.
         */
        post: operations["postAgentsBySlugRating"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}/subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a month of an agent’s subscription (extends an active one)
         * @description A premium agent’s subscription is sold only to callers who may call it (pro, max): others get 403 feature_not_in_tier and pay nothing.
         */
        post: operations["postAgentsBySlugSubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}/tool-prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace an agent’s per-tool prices (owner)
         * @description The whole list is replaced: tools left out cost nothing from now on. A call pays the agent’s base price plus the price of each tool it used.
         */
        post: operations["postAgentsBySlugToolPrices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents/{slug}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hide an agent from new callers; existing callers keep it to month end (owner)
         * @description Idempotent. The agent leaves the listing; callers who used it keep calling it until the start of the next UTC month (`listedUntil`), subscribers until their period ends.
         */
        post: operations["postAgentsBySlugUnpublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ai/agent-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suggest an agent’s name, description, tags and platform tools from a brief
         * @description The configured model writes one suggestion; nothing is applied: send it to POST /agents or PATCH /agents/:slug. `tools` come only from the platform’s list (GET /marketplace/tools). The brief is sent to the model as data. One repair turn when the answer breaks a rule, then 422 `ai_invalid_output`; a refusal is 422 `ai_refused`; a model that is busy, failing or slower than 20 s (one deadline for the whole request) is 503 `ai_unavailable` with Retry-After, as is a deployment without LLM_BASE_URL. 10 requests a minute and 100 a day per user (429 with Retry-After).
         */
        post: operations["postAiAgentMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ai/token-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suggest a token’s name, ticker, description and tags from a brief
         * @description The configured model writes `variants` suggestions; nothing is applied: send the one you like to POST /tokens. The brief is sent to the model as data, never as instructions. Suggestions are checked here: tickers follow the ticker rules and are not used by any token, no URL, domain or @handle anywhere, lengths within the limits. One repair turn when the answer breaks a rule, then 422 `ai_invalid_output`; a refusal is 422 `ai_refused`; a model that is busy, failing or slower than 20 s (one deadline for the whole request) is 503 `ai_unavailable` with Retry-After, as is a deployment without LLM_BASE_URL. 10 requests a minute and 100 a day per user (429 with Retry-After).
         */
        post: operations["postAiTokenMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deleteMessage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete (redact) a message
         * @description The bot’s own messages always; another user’s only with the `redact` power level in the room (403 `forbidden` otherwise). Answers the redaction’s event id.
         */
        post: operations["postApiV1DeleteMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/editMessage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a text message the bot sent
         * @description An `m.replace` edit: clients show the new text (markdown as in sendMessage), clients without edits a `* ` fallback. Only the bot’s own text messages (403 `not_own_message`; the homeserver would store an edit of anybody’s message and clients would ignore it). An `Idempotency-Key` becomes the transaction id.
         */
        post: operations["postApiV1EditMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inviteUser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite a user to a room the bot is in
         * @description The user gets an invite they can accept. 409 `already_member` when they are in the room already; inviting someone already invited answers 200 again.
         */
        post: operations["postApiV1InviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/joinRoom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the bot join a room
         * @description By `room_id` when the bot is invited (a direct message or a manual invite), or by `room_alias` for a public room; exactly one of the two. 403 `forbidden`: not invited and not public; 404 `room_not_found`: the room or alias is unknown. Joining a room the bot is already in answers 200 again.
         */
        post: operations["postApiV1JoinRoom"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The rooms the bot is in, with their names and member counts
         * @description Also at `/rooms/`. Paged by the gateway (the homeserver gives the list whole): by room id, `next_cursor` until the last page; no room repeats or is skipped while the bot’s rooms stay the same.
         */
        get: operations["getApiV1Rooms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rooms/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Members of a room the bot is in (joined, or invited)
         * @description Paged by the gateway by user id, as `GET /rooms/` is. `membership` join (default) or invite. 403 `forbidden` when the bot is not in the room.
         */
        get: operations["getApiV1RoomsByIdMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sendDocument": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a file to a room as the bot
         * @description As sendPhoto, with `document_url`, any type of file (its type read from the bytes, else `application/octet-stream`) and at most 50 MiB. Clients get an `m.file` with its `filename`: the `filename` field, else the part’s or the URL’s name.
         */
        post: operations["postApiV1SendDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sendMessage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a text message to a room as the bot
         * @description The bot must have joined the room (403 `forbidden`: call joinRoom first; 404 `room_not_found` when the homeserver does not know the room). `text` is the plain `body`; with `markdown: true` also sanitised HTML. An `Idempotency-Key` becomes the Matrix transaction id: a retried send returns the same `event_id` and the room gets one message. The homeserver’s rate limit is waited out for up to 10 s, then 429 `rate_limited` with `Retry-After`. 502 `send_failed`: the homeserver failed or is unreachable; retry is safe.
         */
        post: operations["postApiV1SendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sendPhoto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a photo (PNG, JPEG, GIF, WebP) to a room as the bot
         * @description Exactly one source: a `multipart/form-data` part `file` (after the other fields), an https `photo_url` the gateway fetches (public addresses only, up to 3 redirects, each checked again), or the `media_id` of an earlier answer (no new upload). At most 10 MiB and 32 megapixels, and never more than the homeserver takes; the type is read from the bytes (SVG is refused: send it with sendDocument). Clients get an `m.image` with mimetype, size, width and height; `caption` is its text (markdown as in sendMessage). The same file from the same bot token is uploaded once. An `Idempotency-Key` makes a retry safe: the same answer, one upload and one message.
         */
        post: operations["postApiV1SendPhoto"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setReaction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the bot’s reactions on a message (replacing its earlier ones)
         * @description Afterwards the bot has exactly the reactions listed on the event (`[]` clears them): missing ones are sent, others redacted, as the Telegram Bot API does. Other users’ reactions are untouched.
         */
        post: operations["postApiV1SetReaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session: revoked server-side, cookie cleared
         * @description Revokes the session server-side, so its token stops working on every instance at once, and clears the svc_session cookie. Without a session it answers 204 all the same. API keys are not affected: revoke those with DELETE /me/api-keys/{id}.
         */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/matrix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a Matrix OpenID token, or link its account to the current user
         * @description The client asks its homeserver for an OpenID token (`POST /_matrix/client/v3/user/{userId}/openid/request_token`) and sends its `access_token` and `matrix_server_name`. The API asks that homeserver, only if it is allow-listed, whose token it is. Without a session: logs in as the Matrix account’s user (created on its first login, without a wallet) and sets the svc_session cookie. With a session or API key: links the Matrix account to that user, with no new session; it replaces a Matrix account the user had, and linking the one it has changes nothing. Errors, in order: 400 invalid_request (the body), 400 homeserver_not_allowed (the homeserver is not asked at all), 502 matrix_homeserver_failed (unreachable, timed out or a broken answer), 401 matrix_token_invalid (an unknown or expired token, or an answer naming a user of another server), 409 matrix_account_linked (linking a Matrix account another user has).
         */
        post: operations["postAuthMatrix"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/nonce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a single-use SIWE nonce (valid 10 minutes)
         * @description Step 1 of Sign-In with Ethereum (EIP-4361): put this nonce in a message whose domain is this deployment’s SIWE_DOMAIN, whose URI is on that domain and whose chain is one GET /chains lists, sign it with the wallet, then send both to POST /auth/verify. A nonce logs in once and expires after 10 minutes. While Redis is unreachable: 503 service_unavailable.
         */
        post: operations["postAuthNonce"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with a signed SIWE message, or link its wallet to the current account
         * @description Without a session, or with one whose user already has a wallet: logs in as the wallet’s user (created on its first login) and sets the svc_session cookie. With a session (or API key) whose user has no wallet yet (e.g. a Matrix login): links the wallet to that user and answers it, with no new session. Errors: 400 invalid_request, 401 siwe_invalid, 401 nonce_invalid, 409 wallet_linked (linking a wallet another user has), 503 service_unavailable (the nonce store or a contract wallet’s chain unreachable).
         */
        post: operations["postAuthVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Configured chains with the launch factory of each template
         * @description Where a wallet launches and pays: each chain this deployment accepts (CHAIN_RPC_URLS), the launch factory per template, the payment tokens, and on the local chain 31337 how to get test tokens.
         */
        get: operations["getChains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/asset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * DEX Screener Adapter: a launched token, or a quote token, by address
         * @description A launched token: its name, ticker, supply (virtuals: the curve’s whole supply; dpnm: the tokens minted) and circulating supply (outside the curve and pool), in whole units. A quote token (a configured payment token): its name, symbol and supply read from the chain.
         */
        get: operations["getDexscreenerAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * DEX Screener Adapter: swaps in a block range, final blocks only
         * @description fromBlock and toBlock inclusive, at most 100,000 blocks per request.
         */
        get: operations["getDexscreenerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/latest-block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * DEX Screener Adapter: the newest final indexed block
         * @description Every swap up to this block is in /dexscreener/events; nothing newer is shown (a reorg can take back only blocks above it). 503 before the first final block.
         */
        get: operations["getDexscreenerLatestBlock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/pair": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * DEX Screener Adapter: a launched token’s bonding-curve pair
         * @description The pair of a launched token (its address is the pair’s id) against its quote token, with the launch’s block, transaction and creator.
         */
        get: operations["getDexscreenerPair"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/topups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy FLOW: an invoice whose payment credits amountFlow
         * @description amountFlow = amountUsd × FLOW_PER_USD, credited with reason topup when the provider confirms; it counts in withdrawableFlow after TOPUP_SETTLEMENT_HOURS.
         */
        post: operations["postFlowTopups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process is up
         * @description Answers 200 while the process runs, whatever its dependencies do: for a liveness probe. No credentials are read and it is never rate limited.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/flow/credit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Credit FLOW to a user (top-ups, quests, grants, refunds); idempotent on refId
         * @description The same refId with the same userId, amountFlow and reason answers 200 with the original entry and `Idempotent-Replayed: true`; with anything else, 409 `ref_id_conflict`.
         */
        post: operations["postInternalFlowCredit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s FLOW ledger, newest first
         * @description Keyset-paged. `from` is inclusive and `to` exclusive; both are ISO 8601 instants with Z or an offset.
         */
        get: operations["getLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published agents, by trending (default), new, top_earning or top_rated
         * @description Cursor-paged; `tag` narrows to one tag. Anonymous callers may browse.
         */
        get: operations["getMarketplaceAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/agents/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent’s detail
         * @description A published agent (or one the caller owns or still has access to), with its prices, tool prices, statistics of the last 30 days and its linked token.
         */
        get: operations["getMarketplaceAgentsBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform tools an agent may use and price
         * @description The tools an agent may use during a call; owners price them with POST /agents/{slug}/tool-prices and callers may restrict them per call.
         */
        get: operations["getMarketplaceTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user
         * @description The signed-in user: id, linked wallet (lowercase; null after a Matrix-only login) and linked Matrix account. With an API key: the key’s owner.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s agents, newest first
         * @description Drafts, published and unpublished agents with their prices and tool prices; cursor-paged.
         */
        get: operations["getMeAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage and earnings analytics of the caller’s agents and API keys (plus, pro, max)
         * @description Basic analytics (plus): for the last `days` UTC days (today included, at most 30), daily succeeded calls and gross FLOW earned of every agent the caller owns, and daily requests, errors and FLOW spent of every API key of the caller, with totals and an account-wide series that has every day. Advanced analytics (pro, max): `days` up to 365, plus the API key requests by model and by endpoint, and p50/p95 latency per agent and per key over the window’s last 30 days (the newest 20000 calls or requests of each at most). Without a tier, or asking a plus tier for more than 30 days: 403 feature_not_in_tier. Figures come from read models kept exact by every write; requests made with an API key on another API instance show within the usage log’s flush interval.
         */
        get: operations["getMeAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Active API keys
         * @description The caller’s keys that still work (a rolled key until its grace period ends), newest first; never the raw key, only its prefix.
         */
        get: operations["getMeApiKeys"];
        put?: never;
        /**
         * Create an API key (the raw key is in this response only)
         * @description The raw key (`svc_live_…`) is in this response only: store it now; the API keeps only its hash. Send it as `x-api-key` or `Authorization: Bearer`. `rate_limit_rpm` is the key’s own per-minute bucket (0: the owner’s); `spend_limit_flow` caps the FLOW its requests may spend per `spend_period` (402 spend_limit_reached beyond it).
         */
        post: operations["postMeApiKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a key (soft: the record stays for audit)
         * @description The key stops working at once on every instance; its usage history stays. A key already revoked or expired is 404.
         */
        delete: operations["deleteMeApiKeysById"];
        options?: never;
        head?: never;
        /**
         * Change a key’s name or limits (a new spend_period restarts the count)
         * @description Only the fields sent change. Changing `spend_period` starts a new period from now with nothing spent; `spend_limit_flow: null` removes the cap. Every instance sees the change at once.
         */
        patch: operations["patchMeApiKeysById"];
        trace?: never;
    };
    "/me/api-keys/{id}/recent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent calls made with a key, newest first
         * @description The key’s latest requests (up to `limit`, at most 200): route, status, latency, FLOW charged and model.
         */
        get: operations["getMeApiKeysByIdRecent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/api-keys/{id}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll a key: a successor now, the old key keeps working for a grace period
         * @description Rotation without downtime: the successor has the same name and limits (and the spend already counted this period) and its raw key is in this response only; the old key keeps working for `grace_seconds` (24 h by default, 0 to end it now), then counts as revoked. A key can be rolled once: roll its successor next time.
         */
        post: operations["postMeApiKeysByIdRoll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/api-keys/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage summary of a key, with by_model and by_endpoint
         * @description Requests, errors (status ≥ 400) and FLOW spent by the key since the start of the day, week or month (UTC), or ever (`since=all`), with the split by model (agent calls that reported one) and by endpoint.
         */
        get: operations["getMeApiKeysByIdUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Approval requests of all the caller’s projects, newest first
         * @description The inbox: `?status=pending` lists what waits for the caller.
         */
        get: operations["getMeApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/flow-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * FLOW balance record (deprecated: use /me/flow-onchain)
         * @deprecated
         * @description Deprecated (`Deprecation` and `Link: </me/flow-onchain>; rel="successor-version"` headers): the platform FLOW balance record, what is withdrawable, lifetime receipts by source and the last 20 ledger entries.
         */
        get: operations["getMeFlowBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/flow-onchain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s FLOW, USDT, GWT, limits and tree position on each chain
         * @description One entry per configured chain where the signed-in wallet has FLOW activity (a balance, a tree position or a protocol event). Every figure reflects `blockNumber`, the indexed block: indexed state, except `usdtBalance` and `dailyLimitRemaining`, which are contract views at that block. An account without a wallet gets `chains: []`.
         */
        get: operations["getMeFlowOnchain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s notifications, newest first, with their delivery state
         * @description Milestone notifications (project builds started, completed, failed or canceled for subscribed projects, subscription reminders) as queued for the caller, newest first, keyset-paged. The bot delivers each to a direct room with the caller’s linked Matrix account; `sentAt` is when it did, null while the notification is queued. `matrixLinked: false` says why nothing arrives: without a linked account (`POST /auth/matrix`) notifications stay queued, and are delivered, oldest first, once one is linked.
         */
        get: operations["getMeNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Removed: payouts (withdrawal means selling FLOW from the wallet)
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        get: operations["getMePayouts"];
        /**
         * Removed: payouts (withdrawal means selling FLOW from the wallet)
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        put: operations["putMePayouts"];
        /**
         * Removed: payouts (withdrawal means selling FLOW from the wallet)
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        post: operations["postMePayouts"];
        /**
         * Removed: payouts (withdrawal means selling FLOW from the wallet)
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        delete: operations["deleteMePayouts"];
        options?: never;
        head?: never;
        /**
         * Removed: payouts (withdrawal means selling FLOW from the wallet)
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        patch: operations["patchMePayouts"];
        trace?: never;
    };
    "/me/payouts/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Removed: every path under /me/payouts
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        get: operations["getMePayoutsByPath"];
        /**
         * Removed: every path under /me/payouts
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        put: operations["putMePayoutsByPath"];
        /**
         * Removed: every path under /me/payouts
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        post: operations["postMePayoutsByPath"];
        /**
         * Removed: every path under /me/payouts
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        delete: operations["deleteMePayoutsByPath"];
        options?: never;
        head?: never;
        /**
         * Removed: every path under /me/payouts
         * @deprecated
         * @description Every method answers 410 gone: FLOW is withdrawn by selling it from the wallet (see GET /me/flow-onchain).
         */
        patch: operations["patchMePayoutsByPath"];
        trace?: never;
    };
    "/me/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s projects, archived ones included, newest first
         * @description Cursor-paged, private projects included.
         */
        get: operations["getMeProjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s subscription and its features
         * @description Tier, status, renewal date and the features the tier grants; `tier: null` and status `none` without a subscription. An unpaid renewal shows its invoice in `renewal`.
         */
        get: operations["getMeSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/subscription/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel at the end of the period (features stay until renewsAt)
         * @description In grace the paid period is over, so the subscription ends at once. 404 subscription_not_found without an active or grace subscription.
         */
        post: operations["postMeSubscriptionCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/subscription/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change tier: upgrades now (pro-rated checkout), downgrades at renewsAt
         * @description Upgrade: a checkout of the monthly price difference for the share of the period left; the tier switches when it is paid, renewsAt unchanged (409 subscription_past_due in grace). Downgrade: pendingTier, effective at renewsAt; changing back to the current tier clears it.
         */
        post: operations["postMeSubscriptionChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/subscription/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a cancel before the period ends
         * @description Renewal is back on; a subscription that was not canceled stays as it is.
         */
        post: operations["postMeSubscriptionResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s referral tree: counts and earnings per level, directs nested
         * @description From indexed rows in one statement, whatever the tree’s size. 403 `address_not_activated` until the wallet called `activate` on that chain’s FLOW protocol; 400 `chain_unsupported` for a chain not configured here.
         */
        get: operations["getMeTree"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s subscriptions
         * @description Live subscriptions (not deleted), each with its last failed delivery, if any.
         */
        get: operations["getMeWebhooks"];
        put?: never;
        /**
         * Subscribe a URL to events (the signing secret is in this response only)
         * @description Deliveries are signed Standard Webhooks requests (docs/guides/webhooks.md) with the `secret` in this response only. The URL must be https and resolve to a public address; `events` empty or left out means every event, future ones included.
         */
        post: operations["postMeWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The canonical list of subscribable events
         * @description The event names POST /me/webhooks accepts in `events` (`ping` is only sent by the test endpoint).
         */
        get: operations["getMeWebhooksEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a subscription (soft: its delivery history stays)
         * @description No new deliveries are made; pending retries stop.
         */
        delete: operations["deleteMeWebhooksById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription’s deliveries, newest first, with every attempt
         * @description Cursor-paged; each delivery lists its attempts with the status code, duration and error of each.
         */
        get: operations["getMeWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery’s envelope again (same envelope id) as a new delivery
         * @description The same envelope (same `webhook-id`, so a receiver that already processed it can drop it) as a new delivery with its own retries.
         */
        post: operations["postMeWebhooksByIdDeliveriesByDeliveryIdRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a `ping` delivery now
         * @description Queues a signed `ping` delivery to the subscription’s URL at once; follow it with GET /me/webhooks/{id}/deliveries.
         */
        post: operations["postMeWebhooksByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an image (PNG, JPEG, WebP, GIF) for a token or an agent
         * @description `multipart/form-data` with one part, `file`, at most 5 MiB. The type is read from the bytes, never from the part’s header or name; SVG is not accepted. The image is stored as WebP, at most 1024 px on its longest side, upright and without metadata; its id is the SHA-256 of those bytes, so the same picture is stored once and its URL never changes: 201 the first time, 200 with the same body afterwards. 60 uploads an hour per user (429 with Retry-After).
         */
        post: operations["postMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An uploaded image (WebP), cacheable forever
         * @description Public. The bytes never change for an id: `Cache-Control: public, max-age=31536000, immutable` and a strong `ETag`; `If-None-Match` answers 304.
         */
        get: operations["getMediaById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The build page’s script or stylesheet
         * @description Named with a hash of their content, as the page links them; cached for a year.
         */
        get: operations["getPAssetsByFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project’s live build page (HTML)
         * @description The project’s live build page (HTML, for browsers): title, status, and the build’s plan, tool calls, messages, commits and final status, live from `GET /projects/{slug}/stream` (its script resumes after a reload from the last event it showed, with `lastEventId`). A private project’s page is for its owner’s session only: anyone else gets 404 `project_not_found`, as for a slug that does not exist. The `pageUrl` of a project view links here.
         */
        get: operations["getPBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payment provider callback (cryptobot, platega)
         * @description cryptobot: crypto-pay-api-signature, HMAC-SHA256 of the raw body keyed with SHA-256 of the API token. platega: X-MerchantId and X-Secret, and the body must match the transaction as the Platega API reports it. A bad signature is 401 invalid_signature and changes nothing; repeats are acknowledged and change nothing.
         */
        post: operations["postPaymentsByProviderCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a project on one of the caller’s tokens (one active project per token)
         * @description Idle at creation: POST /projects/{slug}/start queues its first build. A token has at most one project that is not archived. `private` needs the max tier.
         */
        post: operations["postProjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project with its status and current run (private: its owner only)
         * @description Anyone may read a public project. A private one is its owner’s: anonymously 401, for anyone else 404, as if it did not exist.
         */
        get: operations["getProjectsBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/approval-audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who did what to the project’s approvals and policy, and when (owner)
         * @description Newest first, cursor-paged: every request, its notice, decision, expiry or cancel, and every policy change, with its actor (user:<id> or system:*).
         */
        get: operations["getProjectsBySlugApprovalAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/approval-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * When the project’s builds stop for the owner’s approval (owner)
         * @description The defaults until the owner sets one: ask_risky (workspace tools run, anything that reaches outside, such as fetch_url, asks), no rules, no plan approval, 24 h to answer, then the step is rejected.
         */
        get: operations["getProjectsBySlugApprovalPolicy"];
        /**
         * Set when the project’s builds stop for approval (owner)
         * @description Replaces the whole policy; a field left out takes its default. Rules are matched before the mode, and a deny rule wins over any other rule for its tool. Applies from the next step of a running build. Every change is kept in the audit trail.
         */
        put: operations["putProjectsBySlugApprovalPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project’s approval requests, newest first (owner)
         * @description Cursor-paged; `status` pending, resolved or all (default). With `all` it is the history of every request and its outcome.
         */
        get: operations["getProjectsBySlugApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/approvals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a waiting step with the digest of the arguments shown (owner)
         * @description The build goes on and runs the step. `argsDigest` must be the request’s (409 approval_stale otherwise): an approval approves exactly the arguments it was shown. The same approval again answers the same; a request decided otherwise, expired or canceled is 409 approval_resolved.
         */
        post: operations["postProjectsBySlugApprovalsByIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/approvals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a waiting step, optionally saying why (owner)
         * @description The step does not run; the build’s brain gets a tool error carrying the comment and goes on. The same rejection again answers the same.
         */
        post: operations["postProjectsBySlugApprovalsByIdReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a project at rest, freeing its token for a new project (owner)
         * @description Idempotent; a queued or running project must be canceled first. Its stream and artifacts stay readable.
         */
        post: operations["postProjectsBySlugArchive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the queued or running build to stop; it ends as canceled (owner)
         * @description The run stops after its current step and ends as `canceled` (watch the stream for its `done`).
         */
        post: operations["postProjectsBySlugCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/runs/{runId}/artifact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a run’s last commit as a gzipped tarball
         * @description A run’s artifact never changes: `Cache-Control: public, max-age=31536000, immutable` (`private, …` for a private project) and an `ETag`; a request whose `If-None-Match` matches it gets 304 without a body.
         */
        get: operations["getProjectsBySlugRunsByRunIdArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a build run and start its workflow (owner)
         * @description From idle, completed, failed or canceled. A queued or running project is 409 run_in_progress; an archived one 409 project_archived.
         */
        post: operations["postProjectsBySlugStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live build stream of a project (SSE), with replay from Last-Event-ID
         * @description Server-Sent Events. Each event has `id` (the project’s event sequence number), `event` (plan, tool_call, tool_result, message, screenshot, commit, error, done) and `data` (JSON). Events newer than `Last-Event-ID` (or the `lastEventId` query parameter) are replayed from the last 1000 kept (from the oldest kept when it is older; every kept event without an id), then the stream goes live without gap or duplicate. Viewers whose tier has `fasterSse` (pro, max) get each live event as it happens; others (anonymous, free, plus) get them in batches at most every 1 s (by default), each event with its own id; the replay and the final `done` are sent at once. A `retry:` hint is sent on connect and a `: keep-alive` comment every 15 s (by default). The stream ends after the `done` of the current run (an archived project’s, after its last event). A client that has every event gets 204 when the last run is done or the project is archived. A client that stops reading is disconnected once 1 MB waits for it, and resumes by reconnecting with its last id.
         */
        get: operations["getProjectsBySlugStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{slug}/subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a project’s milestones through the messaging bot
         * @description Idempotent. The caller is notified (GET /me/notifications, and through the Matrix bot once a Matrix account is linked) when a build starts, completes, fails or is canceled.
         */
        post: operations["postProjectsBySlugSubscribe"];
        /**
         * Stop following a project’s milestones (idempotent)
         * @description Allowed on an archived project too.
         */
        delete: operations["deleteProjectsBySlugSubscribe"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: PostgreSQL, Redis and Temporal all answer
         * @description Answers 503 `service_unavailable` naming every dependency that did not.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find published agents and tokens by name or ticker
         * @description Exact matches first, then names or tickers starting with `q`, then other substring matches; ties by name. A token contract address finds its token.
         */
        get: operations["getSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a subscription: an invoice to pay at checkoutUrl
         * @description Checks, in order: the body (400 invalid_request), the tier (400 tier_unknown), the provider (400 provider_unsupported), no active or grace subscription (409 subscription_active: use POST /me/subscription/change). The subscription activates when the provider confirms the payment; for usdt_bep20 when the chain shows the exact amount at the treasury, after the chain’s finality depth.
         */
        post: operations["postSubscriptionsCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tokens, filtered by template, state or chain
         * @description Cursor-paged (docs/guides/pagination.md): newest first by default. Anonymous callers may list.
         */
        get: operations["getTokens"];
        put?: never;
        /**
         * Create token metadata; without an instance, also the launch calldata to sign
         * @description The API never signs: without `instance`, the answer has `pendingLaunchTx`, the calldata of the launch factory’s launch function, and `launchFactory`, where the caller’s wallet sends it; the token is `pending` until the chain index sees the launch (docs/launch-walkthrough.md). With `instance`, an already launched contract: metadata only. Checks, in order: the chain, the template, the ticker, the template’s params, then uniqueness of ticker and instance on the chain.
         */
        post: operations["postTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every token’s launches, trades and state changes, live (SSE)
         * @description Server-Sent Events of every token: `token` {slug, name, ticker, template, chainId, instance, reason: created | launched | updated}, `tick` {slug, side, price, quoteAmount, marketCap} for every indexed trade, and `state` {slug, state, blockNumber}; the same ids, replay and `reset` rules as a token’s stream (no snapshot: a fresh connection starts now).
         */
        get: operations["getTokensStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A token by slug, with its holder reward pool and launch factory
         * @description The token with its on-chain figures from the chain index (bonding curve for virtuals, pool and tree for dpnm), holder count, and the holder reward pool: 5 % of the earnings of agents linked to it, shared among its holders once a day.
         */
        get: operations["getTokensBySlug"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit a token’s metadata: description and links always, name, ticker and image until launch
         * @description Creator only. Only the fields sent change; null removes a description, an image or a link. `name`, `ticker` and the image (`imageUrl` or `imageMediaId`, from POST /media) change only while the token is `pending`, and a new name or ticker rebuilds `pendingLaunchTx`: sign the new one. Answers the token as GET /tokens/:slug does.
         */
        patch: operations["patchTokensBySlug"];
        trace?: never;
    };
    "/tokens/{slug}/candles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OHLCV candles of a token, columnar, for charts
         * @description Bars of `resolution` from the chain index (docs/guides/charts.md): prices are spot prices in `quoteSymbol`, volumes in the token (`vBase`) and the quote (`vQuote`). Either `from` (and `to`, default now; at most 1500 bars) or `countback` bars ending at `to`. `s: no_data` with `nextTime` tells a chart library where older bars are. Cached for a day once every bar of the range is final, else 2 s.
         */
        get: operations["getTokensBySlugCandles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}/holders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Holders of a token with their share of the supply outside the curve and pool
         * @description From the chain index, largest balance first, cursor-paged; `blockNumber` is the block the figures are at. Balances are decimal strings in whole tokens.
         */
        get: operations["getTokensBySlugHolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}/metadata.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The token’s metadata JSON in the Metaplex and OpenSea fields
         * @description For a wallet, explorer or launchpad that takes a metadata URI: name, symbol, description, image, external_url, properties.files and links (docs/guides/media.md). Cached for a minute.
         */
        get: operations["getTokensBySlugMetadataJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}/onchain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The on-chain aggregate: the bonding curve (virtuals) or the pool and tree (dpnm)
         * @description The token’s contracts and their state at `blockNumber` as indexed: reserves, progress to graduation and last price of a virtuals curve, or pool, supply and tree positions of a dpnm token.
         */
        get: operations["getTokensBySlugOnchain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A token’s price ticks, bars and state, live (SSE), with replay
         * @description Server-Sent Events of one token (docs/chain.md "Market data"). Without `Last-Event-ID`: first a `snapshot` {lastTick, bars (the latest bar of each asked resolution), state, blockNumber}. Then, for each indexed range with trades of the token, a `tick` per trade {blockNumber, txHash, logIndex, time, side, trader, baseAmount, quoteAmount, priceBefore, price, marketCap, progressToGraduation} and a `bar` per asked resolution with the whole current bar; `revert` {fromBlock, fromTime, removed [{txHash, logIndex}], bars} when a reorg takes trades back (drop the bars from the bucket holding fromTime on, then apply these); `state` {state, blockNumber}. Ids come from one outbox sequence shared by all tokens (increasing, not contiguous); a group of events from one outbox row carries its id on its last event. `Last-Event-ID` replays exactly the newer events; an id older than what is kept (at least 24 hours) or unknown gets `reset` {reason: expired | unknown_id} and then a fresh `snapshot`: refetch over REST. `: keep-alive` every 15 s.
         */
        get: operations["getTokensBySlugStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{slug}/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Buys, sells and (virtuals) the graduation of a token, newest first
         * @description From the chain index, cursor-paged; amounts are decimal strings in whole units. Only blocks the index has seen final or re-checked for reorgs are shown.
         */
        get: operations["getTokensBySlugTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AgentCallResult: {
            /** Format: uuid */
            callId: string;
            output: unknown;
            model: string | null;
            toolsUsed: string[];
            usage: {
                inputTokens: number;
                outputTokens: number;
            };
            /** @description FLOW charged: base price (if any) plus the tools used */
            costFlow: number;
        };
        AgentDetail: {
            slug: string;
            name: string;
            imageUrl: string | null;
            tags: string[];
            monetization: ("per_call" | "subscription" | "hybrid" | "freemium") | null;
            perCallPriceFlow: number | null;
            /** @description Premium agents answer only their owner and callers with the pro or max tier */
            premium: boolean;
            stats: {
                /** @description Succeeded calls in the last 30 UTC days */
                callsLast30d: number;
                /** @description Median latency of succeeded calls in the last 30 days; 0 when none */
                p50LatencyMs: number;
                /** @description Average rating, 2 decimals; 0 when unrated */
                rating: number;
                ratingCount: number;
            };
            tokenSlug: string | null;
            description: string | null;
            isPublished: boolean;
            publishedAt: string | null;
            monetizationConfig: {
                model: ("per_call" | "subscription" | "hybrid" | "freemium") | null;
                perCallPriceFlow: number | null;
                subscriptionFlowPerMonth: number | null;
                freemiumDailyCalls: number | null;
            };
            toolPrices: {
                tool: string;
                perCallFlow: number;
            }[];
            linkedToken: {
                slug: string;
                name: string;
                ticker: string;
                chainId: number;
                instance: string | null;
                imageUrl: string | null;
            } | null;
        };
        AgentListItem: {
            slug: string;
            name: string;
            imageUrl: string | null;
            tags: string[];
            monetization: ("per_call" | "subscription" | "hybrid" | "freemium") | null;
            perCallPriceFlow: number | null;
            /** @description Premium agents answer only their owner and callers with the pro or max tier */
            premium: boolean;
            stats: {
                /** @description Succeeded calls in the last 30 UTC days */
                callsLast30d: number;
                /** @description Median latency of succeeded calls in the last 30 days; 0 when none */
                p50LatencyMs: number;
                /** @description Average rating, 2 decimals; 0 when unrated */
                rating: number;
                ratingCount: number;
            };
            tokenSlug: string | null;
        };
        /**
         * @example {
         *       "suggestions": [
         *         {
         *           "name": "PDF Companion",
         *           "description": "Summarises long PDFs and answers questions about them, citing pages.",
         *           "tags": [
         *             "documents",
         *             "summaries"
         *           ],
         *           "tools": [
         *             "file_search"
         *           ]
         *         }
         *       ],
         *       "model": "gpt-4o-mini",
         *       "requestId": "5b0c2d7e-9a41-4c3f-8e2b-1f6a7d9c0e34"
         *     }
         */
        AgentMetadataSuggestions: {
            suggestions: {
                name: string;
                description: string;
                tags: string[];
                /** @description Only platform tools */
                tools: ("web_search" | "web_fetch" | "code_interpreter" | "image_generation" | "file_search" | "browser" | "shell" | "git")[];
            }[];
            /** @description The model that answered */
            model: string;
            /** @description This request’s id, as in the logs and X-Request-Id */
            requestId: string;
        };
        AgentRatingResult: {
            slug: string;
            rating: number;
            averageRating: number;
            ratingCount: number;
        };
        AgentSubscription: {
            agentSlug: string;
            /** @constant */
            subscribed: true;
            /** Format: date-time */
            periodStart: string;
            /** Format: date-time */
            periodEnd: string;
            costFlow: number;
        };
        AgentToolPrices: {
            slug: string;
            toolPrices: {
                tool: string;
                perCallFlow: number;
            }[];
        };
        Analytics: {
            /**
             * @description basic: plus; advanced: pro and max
             * @enum {string}
             */
            level: "basic" | "advanced";
            /**
             * @description The caller’s entitled tier (active or in grace)
             * @enum {string}
             */
            tier: "plus" | "pro" | "max";
            days: number;
            /**
             * Format: date
             * @description The first day covered
             */
            from: string;
            /**
             * Format: date
             * @description The last day covered: today (UTC), still in progress
             */
            to: string;
            /** @description The whole window: every agent and every API key of the caller */
            totals: {
                /** @description Succeeded (billed) calls */
                calls: number;
                /** @description Gross FLOW the agent billed (calls and subscriptions), before the 5 % holder share of a linked token */
                flowEarned: number;
                requests: number;
                /** @description Requests answered with a status of 400 or more */
                errors: number;
                /** @description FLOW charged to requests made with the key */
                flowSpent: number;
            };
            /** @description Every day of the window, oldest first, zeros included */
            daily: {
                /** @description Succeeded (billed) calls */
                calls: number;
                /** @description Gross FLOW the agent billed (calls and subscriptions), before the 5 % holder share of a linked token */
                flowEarned: number;
                requests: number;
                /** @description Requests answered with a status of 400 or more */
                errors: number;
                /** @description FLOW charged to requests made with the key */
                flowSpent: number;
                /**
                 * Format: date
                 * @description A UTC calendar day, YYYY-MM-DD
                 */
                day: string;
            }[];
            /** @description Every agent the caller owns, newest first; calls and earnings of the window */
            agents: components["schemas"]["AnalyticsAgent"][];
            /** @description Every API key of the caller usable during the window (revoked or expired ones included until then), newest first */
            apiKeys: components["schemas"]["AnalyticsApiKey"][];
            /** @description Advanced only: the caller’s API key requests by model, most used first */
            byModel?: {
                model: string;
                requests: number;
                flowSpent: number;
                inputTokens: number;
                outputTokens: number;
            }[];
            /** @description Advanced only: the caller’s API key requests by endpoint, most used first */
            byEndpoint?: {
                method: string;
                route: string;
                requests: number;
                errors: number;
                flowSpent: number;
            }[];
            /** @description Advanced only: the days the latency percentiles cover (the window’s last 30 at most), and the newest calls (requests) taken per agent (key) */
            latencyWindow?: {
                /**
                 * Format: date
                 * @description A UTC calendar day, YYYY-MM-DD
                 */
                from: string;
                days: number;
                maxSamples: number;
            };
        };
        AnalyticsAgent: {
            slug: string;
            name: string;
            premium: boolean;
            isPublished: boolean;
            totals: {
                /** @description Succeeded (billed) calls */
                calls: number;
                /** @description Gross FLOW the agent billed (calls and subscriptions), before the 5 % holder share of a linked token */
                flowEarned: number;
            };
            /** @description Days with activity only, oldest first (a missing day had none) */
            daily: {
                /** @description Succeeded (billed) calls */
                calls: number;
                /** @description Gross FLOW the agent billed (calls and subscriptions), before the 5 % holder share of a linked token */
                flowEarned: number;
                /**
                 * Format: date
                 * @description A UTC calendar day, YYYY-MM-DD
                 */
                day: string;
            }[];
            /** @description Advanced only: latency of the agent’s succeeded calls, as the platform timed them */
            latency?: components["schemas"]["AnalyticsLatency"];
        };
        AnalyticsApiKey: {
            /** Format: uuid */
            id: string;
            prefix: string;
            name: string;
            revoked: boolean;
            totals: {
                requests: number;
                /** @description Requests answered with a status of 400 or more */
                errors: number;
                /** @description FLOW charged to requests made with the key */
                flowSpent: number;
            };
            /** @description Days with activity only, oldest first (a missing day had none) */
            daily: {
                requests: number;
                /** @description Requests answered with a status of 400 or more */
                errors: number;
                /** @description FLOW charged to requests made with the key */
                flowSpent: number;
                /**
                 * Format: date
                 * @description A UTC calendar day, YYYY-MM-DD
                 */
                day: string;
            }[];
            /** @description Advanced only: latency of every request made with the key */
            latency?: components["schemas"]["AnalyticsLatency"];
        };
        AnalyticsLatency: {
            /** @description Median latency in ms; null without samples */
            p50Ms: number | null;
            /** @description 95th percentile latency in ms; null without samples */
            p95Ms: number | null;
            /** @description How many calls (requests) the percentiles were taken from: those of the latency window, at most the newest 20000 */
            samples: number;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            prefix: string;
            name: string;
            rate_limit_rpm: number;
            spend_limit_flow: string | null;
            /** @enum {string} */
            spend_period: "day" | "week" | "month" | "forever";
            spend_period_used: number;
            spend_period_resets_at: string | null;
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
            revoked: boolean;
            /** @description Set once the key is rolled: it stops working at this time */
            expires_at: string | null;
        };
        ApiKeyRecentCalls: {
            items: {
                /** Format: uuid */
                id: string;
                method: string;
                route: string;
                status: number;
                flow_cost: number;
                model: string | null;
                latency_ms: number;
                /** Format: date-time */
                created_at: string;
            }[];
        };
        ApiKeyUsage: {
            /** @enum {string} */
            since: "day" | "week" | "month" | "all";
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            requests: number;
            errors: number;
            flow_spent: number;
            by_model: {
                model: string;
                requests: number;
                flow_spent: number;
                input_tokens: number;
                output_tokens: number;
            }[];
            by_endpoint: {
                method: string;
                route: string;
                requests: number;
            }[];
        };
        ApiKeyWithSecret: {
            /** Format: uuid */
            id: string;
            prefix: string;
            name: string;
            rate_limit_rpm: number;
            spend_limit_flow: string | null;
            /** @enum {string} */
            spend_period: "day" | "week" | "month" | "forever";
            spend_period_used: number;
            spend_period_resets_at: string | null;
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
            revoked: boolean;
            /** @description Set once the key is rolled: it stops working at this time */
            expires_at: string | null;
            /** @description The raw key, shown this once */
            key: string;
        };
        /**
         * @example {
         *       "id": "1207",
         *       "approvalId": "0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46",
         *       "action": "approved",
         *       "actor": "user:42",
         *       "detail": {
         *         "argsDigest": "5f1c3b8e0d2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e0f2a4b6c8d0e2f4a6b8c0d2e"
         *       },
         *       "at": "2026-11-29T10:05:00.000Z"
         *     }
         */
        ApprovalAuditEntry: {
            /** @description Increasing: the order of the trail */
            id: string;
            /** @description Null for a policy change */
            approvalId: string | null;
            /** @enum {string} */
            action: "requested" | "notified" | "approved" | "rejected" | "expired" | "canceled" | "policy_changed";
            /** @description user:<id> (the owner), system:build, system:timeout or system:cancel */
            actor: string;
            detail: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            at: string;
        };
        ApprovalAuditPage: {
            items: components["schemas"]["ApprovalAuditEntry"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        ApprovalPage: {
            items: components["schemas"]["ApprovalRequest"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        /**
         * @example {
         *       "mode": "ask_risky",
         *       "rules": [],
         *       "planApproval": false,
         *       "timeoutSeconds": 86400,
         *       "onTimeout": "reject",
         *       "updatedAt": null
         *     }
         */
        ApprovalPolicy: {
            /** @enum {string} */
            mode: "ask_risky" | "ask_all" | "autonomous";
            rules: {
                tool: string;
                /** @enum {string} */
                action: "allow" | "ask" | "deny";
            }[];
            planApproval: boolean;
            timeoutSeconds: number;
            /** @enum {string} */
            onTimeout: "reject" | "fail";
            /** @description Null while the project has the defaults */
            updatedAt: string | null;
        };
        /**
         * @example {
         *       "id": "0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46",
         *       "projectSlug": "atlas-research",
         *       "runId": "7c2e9d14-5b3a-4f8e-a1c6-2d9f0e7b3a58",
         *       "kind": "tool_call",
         *       "tool": "fetch_url",
         *       "argsPreview": {
         *         "url": "https://example.com/paper"
         *       },
         *       "argsDigest": "5f1c3b8e0d2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e0f2a4b6c8d0e2f4a6b8c0d2e",
         *       "status": "pending",
         *       "requestedAt": "2026-11-29T10:00:00.000Z",
         *       "expiresAt": "2026-11-30T10:00:00.000Z",
         *       "decidedAt": null,
         *       "comment": null,
         *       "remember": null
         *     }
         */
        ApprovalRequest: {
            /** Format: uuid */
            id: string;
            projectSlug: string;
            /** Format: uuid */
            runId: string;
            /** @enum {string} */
            kind: "plan" | "tool_call";
            tool: string | null;
            /** @description The arguments, long strings cut */
            argsPreview: unknown;
            /** @description Send it back to approve exactly these arguments */
            argsDigest: string;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected" | "expired" | "canceled";
            /** Format: date-time */
            requestedAt: string;
            /** Format: date-time */
            expiresAt: string;
            decidedAt: string | null;
            comment: string | null;
            remember: ("run" | "project") | null;
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "event_id": "$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
         *       "reason": "Sent by mistake"
         *     }
         */
        BotDeleteMessageRequestInput: {
            room_id: string;
            event_id: string;
            /** @description Shown to clients with the redaction */
            reason?: string;
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "event_id": "$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
         *       "text": "Build **finished** (3 commits)",
         *       "markdown": true
         *     }
         */
        BotEditMessageRequestInput: {
            room_id: string;
            /** @description A text message the bot sent */
            event_id: string;
            /** @description The message as it should now read */
            text: string;
            /** @description As in sendMessage */
            markdown?: boolean;
        };
        /**
         * @example {
         *       "error": "forbidden",
         *       "detail": "The bot is not in the room. Call joinRoom first."
         *     }
         */
        BotError: {
            /** @description invalid_body, unauthorized, forbidden, room_not_found, rate_limited, send_failed, ... */
            error: string;
            /** @description What went wrong, for a person */
            detail?: string;
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "user_id": "@alice:example.org"
         *     }
         */
        BotInviteUserRequestInput: {
            room_id: string;
            user_id: string;
        };
        /**
         * @example {
         *       "invited": true
         *     }
         */
        BotInviteUserResult: {
            /** @constant */
            invited: true;
        };
        /**
         * @example {
         *       "room_alias": "#announcements:example.org"
         *     }
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org"
         *     }
         */
        BotJoinRoomRequestInput: {
            /** @description A room id (`!id:server`) */
            room_id?: string;
            /** @description A room alias (`#alias:server`) of a public room */
            room_alias?: string;
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org"
         *     }
         */
        BotJoinRoomResult: {
            /** @description The id of the room the bot is now in */
            room_id: string;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "user_id": "@alice:example.org",
         *           "display_name": "Alice",
         *           "membership": "join"
         *         }
         *       ],
         *       "next_cursor": null
         *     }
         */
        BotMembersResult: {
            items: {
                user_id: string;
                display_name: string | null;
                /** @enum {string} */
                membership: "join" | "invite";
            }[];
            /** @description Null on the last page */
            next_cursor: string | null;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *           "name": "Announcements",
         *           "joined_members": 42
         *         }
         *       ],
         *       "next_cursor": null
         *     }
         */
        BotRoomsResult: {
            items: {
                room_id: string;
                name: string | null;
                joined_members: number;
            }[];
            /** @description Null on the last page */
            next_cursor: string | null;
        };
        /**
         * @description As JSON with `document_url` or `media_id`, or as `multipart/form-data` with the same fields first and the file last in a part named `file`: exactly one of the three.
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "document_url": "https://example.org/reports/atlas-2026-11.pdf",
         *       "caption": "The November report"
         *     }
         */
        BotSendDocumentRequestInput: {
            /** @description The room to send to; the bot must have joined it */
            room_id: string;
            /** @description The `media.media_id` of an earlier answer: sent again without a new upload */
            media_id?: string;
            /** @description Shown with the file; the same rules as `text` */
            caption?: string;
            /** @description The caption as markdown, as in sendMessage */
            markdown?: boolean;
            /** @description The event this message replies to */
            reply_to?: string;
            /** @description The name clients show and save the file under; by default the uploaded part’s name, the URL’s last segment or the name it was first sent under */
            filename?: string;
            /** @description An https URL the gateway fetches the document from (public addresses only; up to 3 redirects, each checked again) */
            document_url?: string;
        };
        /**
         * @example {
         *       "event_id": "$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
         *       "media": {
         *         "media_id": "bm_Xq3v9LrT2pWkZbN8sYcA1d",
         *         "mimetype": "image/png",
         *         "size": 184320,
         *         "w": 1280,
         *         "h": 720
         *       }
         *     }
         */
        BotSendFileResult: {
            /** @description The Matrix event id of the message */
            event_id: string;
            media: {
                /** @description Send the same file again by this id (this bot token only), with no upload */
                media_id: string;
                /** @description Read from the bytes */
                mimetype: string;
                /** @description Bytes */
                size: number;
                /** @description Width in pixels (photos) */
                w?: number;
                /** @description Height in pixels (photos) */
                h?: number;
            };
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "text": "**Build finished**: your project _Atlas_ is live",
         *       "markdown": true
         *     }
         */
        BotSendMessageRequestInput: {
            /** @description The room to send to; the bot must have joined it */
            room_id: string;
            /** @description The message; sent as the plain `body` in any case */
            text: string;
            /** @description Also send it as HTML (`formatted_body`): bold, italic, code and line breaks; raw HTML in the text is shown as text */
            markdown?: boolean;
            /** @description The event this message replies to */
            reply_to?: string;
        };
        /**
         * @example {
         *       "event_id": "$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg"
         *     }
         */
        BotSendMessageResult: {
            /** @description The Matrix event id of the message, for replies and follow-ups */
            event_id: string;
        };
        /**
         * @description As JSON with `photo_url` or `media_id`, or as `multipart/form-data` with the same fields first and the image last in a part named `file`: exactly one of the three.
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "photo_url": "https://example.org/charts/atlas-week-48.png",
         *       "caption": "Atlas, **week 48**",
         *       "markdown": true
         *     }
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "media_id": "bm_Xq3v9LrT2pWkZbN8sYcA1d"
         *     }
         */
        BotSendPhotoRequestInput: {
            /** @description The room to send to; the bot must have joined it */
            room_id: string;
            /** @description The `media.media_id` of an earlier answer: sent again without a new upload */
            media_id?: string;
            /** @description Shown with the file; the same rules as `text` */
            caption?: string;
            /** @description The caption as markdown, as in sendMessage */
            markdown?: boolean;
            /** @description The event this message replies to */
            reply_to?: string;
            /** @description The name clients show and save the file under; by default the uploaded part’s name, the URL’s last segment or the name it was first sent under */
            filename?: string;
            /** @description An https URL the gateway fetches the photo from (public addresses only; up to 3 redirects, each checked again) */
            photo_url?: string;
        };
        /**
         * @example {
         *       "room_id": "!kXwqLtBfrGnQhvTuZs:example.org",
         *       "event_id": "$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg",
         *       "reaction": [
         *         "👍"
         *       ]
         *     }
         */
        BotSetReactionRequestInput: {
            room_id: string;
            event_id: string;
            /** @description The bot’s reactions on the event afterwards (emoji keys; a repeated key counts once); [] clears them */
            reaction: string[];
        };
        /**
         * @example {
         *       "reactions": [
         *         {
         *           "key": "👍",
         *           "event_id": "$r1-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5"
         *         }
         *       ]
         *     }
         */
        BotSetReactionResult: {
            reactions: {
                key: string;
                /** @description The reaction event */
                event_id: string;
            }[];
        };
        /**
         * @description OHLCV bars, columnar (every array as long as t)
         * @example {
         *       "s": "ok",
         *       "resolution": "1h",
         *       "quoteSymbol": "VIRTUAL",
         *       "t": [
         *         1767222000,
         *         1767225600
         *       ],
         *       "o": [
         *         "0.000001",
         *         "0.0000011"
         *       ],
         *       "h": [
         *         "0.0000011",
         *         "0.0000012"
         *       ],
         *       "l": [
         *         "0.000001",
         *         "0.00000105"
         *       ],
         *       "c": [
         *         "0.0000011",
         *         "0.0000012"
         *       ],
         *       "vBase": [
         *         "9990009.990009990009990009",
         *         "4504504.5"
         *       ],
         *       "vQuote": [
         *         "10",
         *         "5"
         *       ],
         *       "n": [
         *         3,
         *         1
         *       ],
         *       "filled": [
         *         false,
         *         false
         *       ],
         *       "nextTime": null,
         *       "partialLast": true,
         *       "blockNumber": 1284
         *     }
         */
        Candles: {
            /**
             * @description no_data: the range holds no bar (see nextTime); the arrays are then empty
             * @enum {string}
             */
            s: "ok" | "no_data";
            /** @enum {string} */
            resolution: "15s" | "1m" | "5m" | "15m" | "1h" | "4h" | "1d" | "1w";
            /**
             * @description The unit of prices and vQuote: the curve’s payment token or the pool’s USDT
             * @enum {string}
             */
            quoteSymbol: "VIRTUAL" | "USDT";
            /** @description Each bar’s start, Unix seconds, oldest first */
            t: number[];
            /** @description Open: the first trade’s spot price before it */
            o: string[];
            /** @description High: the highest spot price before or after a trade of the bar */
            h: string[];
            /** @description Low */
            l: string[];
            /** @description Close: the last trade’s spot price after it */
            c: string[];
            /** @description Volume in the token */
            vBase: string[];
            /** @description Volume in the quote token */
            vQuote: string[];
            /** @description Trades in the bar (0 for a filled one) */
            n: number[];
            /** @description true for a bucket without trades carried from the previous close (fill=previous) */
            filled: boolean[];
            /** @description With no_data: the start of the nearest older bar, null when there is none */
            nextTime: number | null;
            /** @description The last bar is still open at the indexed block’s time */
            partialLast: boolean;
            /** @description The last indexed block the bars reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "chainId": 31337,
         *           "name": "Local development chain",
         *           "factories": {
         *             "virtuals": "0x7f25f5639eE79FF51af75ba67b89Eba04b363E62",
         *             "dpnm": "0x5E6AD17B1a1e9baA1371CB6D60056a09C8bAF2dd"
         *           },
         *           "paymentTokens": [
         *             {
         *               "role": "virtualsPayment",
         *               "template": "virtuals",
         *               "address": "0x16E454B91a9A4DA4043Ecad326c31e1b8a378e24",
         *               "symbol": "tVIRTUAL",
         *               "decimals": 18
         *             },
         *             {
         *               "role": "usdt",
         *               "template": "dpnm",
         *               "address": "0x536cce5883F2D6D2f5B52A479cf962ab53396862",
         *               "symbol": "USDT",
         *               "decimals": 18
         *             }
         *           ],
         *           "faucet": {
         *             "kind": "mint",
         *             "how": "Test tokens: any account may call mint(to, amount) on each of paymentTokens (amount in base units, 18 decimals). For gas, anvil’s ten development accounts start with 10000 ETH, and the JSON-RPC call anvil_setBalance(address, wei) gives any address ETH.",
         *             "mintFunction": "function mint(address to, uint256 amount)",
         *             "setBalanceRpcMethod": "anvil_setBalance"
         *           }
         *         }
         *       ]
         *     }
         */
        ChainList: {
            items: {
                chainId: number;
                name: string;
                factories: {
                    virtuals: string | null;
                    dpnm: string | null;
                };
                /** @description The ERC-20s launches on this chain pay in (CHAIN_PAYMENT_TOKENS); may be empty */
                paymentTokens: {
                    /**
                     * @description virtualsPayment: what virtuals bonding curves trade against; usdt: what dpnm prices, deposits and tree activations are in
                     * @enum {string}
                     */
                    role: "virtualsPayment" | "usdt";
                    /**
                     * @description The launch template that pays in it
                     * @enum {string}
                     */
                    template: "virtuals" | "dpnm";
                    /** @description Checksummed ERC-20 address */
                    address: string;
                    symbol: string;
                    /** @description Always 18: the service encodes launch amounts with 18 decimals */
                    decimals: number;
                }[];
                /** @description How to get test tokens: on the local chain 31337 only, null elsewhere */
                faucet: {
                    /**
                     * @description mint: the payment tokens are test tokens anyone may mint
                     * @enum {string}
                     */
                    kind: "mint";
                    /** @description The steps in one sentence */
                    how: string;
                    /** @description Human-readable ABI of the payment tokens’ public mint (viem parseAbi, ethers) */
                    mintFunction: string;
                    /** @description JSON-RPC method that sets an address’s ETH balance: params [address, hex wei] */
                    setBalanceRpcMethod: string;
                } | null;
            }[];
        };
        CreatedAgent: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            description: string | null;
            tags: string[];
            imageUrl: string | null;
            endpointUrl: string;
            isPublished: boolean;
            publishedAt: string | null;
            unpublishedAt: string | null;
            listedUntil: string | null;
            monetization: ("per_call" | "subscription" | "hybrid" | "freemium") | null;
            perCallPriceFlow: number | null;
            subscriptionFlowPerMonth: number | null;
            freemiumDailyCalls: number | null;
            /** @description Premium agents answer only their owner and callers with the pro or max tier */
            premium: boolean;
            tokenSlug: string | null;
            toolPrices: {
                tool: string;
                perCallFlow: number;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Signs the platform’s calls to endpointUrl (`whsec_…`); shown this once */
            endpointSecret: string;
        };
        /**
         * @example {
         *       "id": "b1e4c7d2-5a8f-4b3e-8c6d-9f2a1e7b4c58",
         *       "slug": "atlas",
         *       "name": "Atlas",
         *       "ticker": "ATLAS",
         *       "template": "virtuals",
         *       "instance": null,
         *       "chainId": 31337,
         *       "imageUrl": "https://cdn.example.com/images/atlas.png",
         *       "brief": "Atlas funds community research; holders share 5 % of its agents’ earnings.",
         *       "params": {
         *         "graduationThreshold": "42000",
         *         "initialBuy": "100"
         *       },
         *       "state": "pending",
         *       "createdAt": "2026-11-24T10:00:00.000Z",
         *       "pendingLaunchTx": "0x4f1ef286b1e4c7d25a8f4b3e8c6d9f2a1e7b4c580000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000c0",
         *       "launchFactory": "0x7f25f5639eE79FF51af75ba67b89Eba04b363E62"
         *     }
         */
        CreatedToken: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            ticker: string;
            /** @enum {string} */
            template: "virtuals" | "dpnm";
            /** @description Checksummed instance address once launched */
            instance: string | null;
            chainId: number;
            imageUrl: string | null;
            brief: string | null;
            /** @description Launch parameters, normalised */
            params: {
                [key: string]: unknown;
            };
            /**
             * @description `pending` until the launch is seen on chain; then live, graduating, ...
             * @enum {string}
             */
            state: "pending" | "live" | "graduating" | "sentient" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Hex calldata of the factory’s launch function (GET /chains has the factory); present only while the token has no instance */
            pendingLaunchTx?: string;
            /** @description Where the wallet sends pendingLaunchTx; null when created with an instance */
            launchFactory: string | null;
        };
        CreatedWebhook: {
            webhook: {
                /** Format: uuid */
                id: string;
                url: string;
                /** @description Empty means every event, including future ones */
                events: string[];
                /** Format: date-time */
                created_at: string;
                /** @description The last delivery that failed after all its retries; null if none has */
                last_error: {
                    /** Format: date-time */
                    at: string;
                    delivery_id: string;
                    /** @description The receiver’s status; null on network error */
                    status: number | null;
                    error: string;
                } | null;
                /** @description whsec_…; signs deliveries; shown in this response only */
                secret: string;
            };
        };
        /**
         * @example {
         *       "template": "virtuals",
         *       "instance": "0x2E9D2A8d4C6b1e2F6f2D1f5CF6A3b9c0e4d7A1B2",
         *       "pair": "0x7f25f5639eE79FF51af75ba67b89Eba04b363E62",
         *       "reserveToken": "850961538.461538461538461539",
         *       "reservePayment": "1175",
         *       "lockedPaymentToken": "175",
         *       "graduationThreshold": "1000",
         *       "progressToGraduation": 0.175,
         *       "graduated": false,
         *       "lastTradePrice": "0.000001369",
         *       "totalSupply": "1000000000",
         *       "blockNumber": 1284
         *     }
         */
        CurveOnchain: {
            /** @constant */
            template: "virtuals";
            /** @description Checksummed address; null before the launch */
            instance: string | null;
            /** @description The contract holding the curve (the virtuals factory) */
            pair: string | null;
            /** @description Tokens left on the curve */
            reserveToken: string | null;
            /** @description Locked payment plus the virtual reserve */
            reservePayment: string | null;
            lockedPaymentToken: string | null;
            graduationThreshold: string | null;
            progressToGraduation: number | null;
            graduated: boolean | null;
            lastTradePrice: string | null;
            totalSupply: string | null;
            /** @description The last indexed block these figures reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        /**
         * @example {
         *       "asset": {
         *         "id": "0xc3b80ed1F7AeA7324D65b49F04CE304885874f31",
         *         "name": "Atlas",
         *         "symbol": "ATLAS",
         *         "totalSupply": "1000000000",
         *         "circulatingSupply": "9990009.990009990009990009"
         *       }
         *     }
         */
        DexScreenerAsset: {
            asset: {
                id: string;
                name: string;
                symbol: string;
                totalSupply: string;
                circulatingSupply?: string;
            };
        };
        /** @description Swaps up to the newest final block, in chain order */
        DexScreenerEvents: {
            events: {
                block: {
                    blockNumber: number;
                    /** @description Unix seconds */
                    blockTimestamp: number;
                };
                /** @constant */
                eventType: "swap";
                txnId: string;
                /** @description The transaction’s rank among the block’s indexed transactions */
                txnIndex: number;
                /** @description The log index */
                eventIndex: number;
                maker: string;
                pairId: string;
                asset0In?: string;
                asset1In?: string;
                asset0Out?: string;
                asset1Out?: string;
                /** @description asset1 per asset0 after the swap (the spot price) */
                priceNative: string;
                /** @description virtuals: the curve’s tokens and locked payment after the swap */
                reserves?: {
                    asset0: string;
                    asset1: string;
                };
            }[];
        };
        /**
         * @description The newest final indexed block: /events holds every swap up to it
         * @example {
         *       "block": {
         *         "blockNumber": 1284,
         *         "blockTimestamp": 1795989600
         *       }
         *     }
         */
        DexScreenerLatestBlock: {
            block: {
                blockNumber: number;
                /** @description Unix seconds */
                blockTimestamp: number;
            };
        };
        /**
         * @example {
         *       "pair": {
         *         "id": "0xc3b80ed1F7AeA7324D65b49F04CE304885874f31",
         *         "dexKey": "virtuals",
         *         "asset0Id": "0xc3b80ed1F7AeA7324D65b49F04CE304885874f31",
         *         "asset1Id": "0x16E454B91a9A4DA4043Ecad326c31e1b8a378e24",
         *         "createdAtBlockNumber": 1283,
         *         "createdAtBlockTimestamp": 1795989590,
         *         "createdAtTxnId": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
         *         "creator": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
         *         "feeBps": 0
         *       }
         *     }
         */
        DexScreenerPair: {
            pair: {
                /** @description The launched token’s address: one curve (or pool) per token */
                id: string;
                /** @description `virtuals` or `dpnm`: the launch template */
                dexKey: string;
                /** @description The token */
                asset0Id: string;
                /** @description The quote token (the curve’s payment token, or USDT) */
                asset1Id: string;
                createdAtBlockNumber: number;
                createdAtBlockTimestamp: number;
                createdAtTxnId: string;
                creator: string;
                /** @description 0 for a virtuals curve; 1000 for dpnm (the tree fee) */
                feeBps: number;
            };
        };
        ErrorEnvelope: {
            error: {
                /** @description Stable, machine-readable error code */
                code: string;
                /** @description Human-readable explanation */
                message: string;
            };
        };
        FlowBalance: {
            /** @description Spendable FLOW: the balance minus what calls in flight hold */
            balance: number;
            /** @description Spendable FLOW minus all FLOW ever granted and top-ups younger than TOPUP_SETTLEMENT_HOURS */
            withdrawableFlow: number;
            /** @description Lifetime FLOW received, by source */
            breakdown: {
                topUp: number;
                subscriptionGrant: number;
                creatorShare: number;
                holderRewardsTotal: number;
                freelance: number;
                quests: number;
            };
            /** @description The last 20 entries, newest first */
            recentLedger: components["schemas"]["LedgerEntry"][];
        };
        FlowCredit: {
            entry: components["schemas"]["LedgerEntry"];
            /** @description The user’s spendable FLOW now */
            balance: number;
        };
        /**
         * @example {
         *       "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
         *       "chains": [
         *         {
         *           "chainId": 31337,
         *           "chainName": "Local development chain",
         *           "tokenSlug": "flow",
         *           "instance": "0x8464135c8F25Da09e49BC8782676a84730C318bC",
         *           "flowProtocol": "0x71C95911E9a5D330f4D621842EC243EE1343292e",
         *           "flowBalance": "85.5",
         *           "usdtBalance": "9890",
         *           "gwtBalance": "0",
         *           "currentPrice": "1.02",
         *           "dailyLimitTotal": "1000",
         *           "dailyLimitRemaining": "900",
         *           "incomeLimitRemaining": "200",
         *           "lifetimeIncome": "1.2",
         *           "treeActiveUntil": 1797379200,
         *           "treeActiveDaysLeft": 30,
         *           "claimableGWT": "0",
         *           "tree": {
         *             "upline": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
         *             "directSlots": [
         *               "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
         *               null,
         *               null
         *             ],
         *             "subtreeSize": 1,
         *             "subtreeByLevel": [
         *               1,
         *               0,
         *               0,
         *               0,
         *               0,
         *               0,
         *               0,
         *               0,
         *               0,
         *               0
         *             ]
         *           },
         *           "blockNumber": 1284
         *         }
         *       ]
         *     }
         */
        FlowOnchain: {
            /** @description The signed-in wallet; null for an account without one (then `chains` is empty) */
            address: string | null;
            /** @description One entry per configured chain where the address has any FLOW activity */
            chains: components["schemas"]["OnchainUserState"][];
        };
        /**
         * @example {
         *       "topupId": "3d5e7f90-1a2b-4c3d-9e8f-7a6b5c4d3e2f",
         *       "provider": "usdt_bep20",
         *       "amountUsd": 25,
         *       "amountFlow": 25,
         *       "checkoutUrl": "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x9a3C0f0D1b5e6A7c8E2d4F1B3a5C7e9D0f2A4b6C&uint256=25000041700000000000",
         *       "expiresAt": "2026-11-25T11:00:00.000Z"
         *     }
         */
        FlowTopup: {
            /** Format: uuid */
            topupId: string;
            /** @enum {string} */
            provider: "cryptobot" | "platega" | "usdt_bep20";
            amountUsd: number;
            /** @description FLOW credited when the payment is confirmed */
            amountFlow: number;
            checkoutUrl: string;
            /** Format: date-time */
            expiresAt: string;
        };
        Holder: {
            /** @description Checksummed holder address */
            address: string;
            /** @description Decimal string in whole units, all 18 decimals kept (e.g. "1250.5") */
            balance: string;
            /** @description balance / the supply held outside the curve and pool (0..1) */
            share: number;
        };
        /**
         * @description Balance descending, ties by address descending
         * @example {
         *       "items": [
         *         {
         *           "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
         *           "balance": "12500000.25",
         *           "share": 0.625
         *         }
         *       ],
         *       "nextCursor": null,
         *       "blockNumber": 1284
         *     }
         */
        HolderPage: {
            items: components["schemas"]["Holder"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
            /** @description The last indexed block these figures reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        Home: {
            name: string;
            version: string;
            /** @description The interactive API reference */
            docs: string;
            /** @description The OpenAPI 3.1 document */
            openapi: string;
            health: string;
            readiness: string;
            /** @description Guides in the service’s repository */
            guides: {
                path: string;
                about: string;
            }[];
            /** @description Outside production: how to get test FLOW (POST, signed in) */
            faucet?: string;
        };
        LedgerEntry: {
            /** Format: uuid */
            id: string;
            /** @description FLOW; negative for spend */
            delta: number;
            /** @description The account’s FLOW balance right after this entry */
            balanceAfter: number;
            /** @enum {string} */
            reason: "topup" | "call" | "grant" | "payout" | "refund" | "quest";
            /** @description What caused it: credit, agent_call, agent_subscription, … */
            refType: string;
            refId: string;
            metadata: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            createdAt: string;
        };
        LedgerPage: {
            items: components["schemas"]["LedgerEntry"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "tool": "web_search",
         *           "description": "Searches the web and returns ranked results"
         *         },
         *         {
         *           "tool": "web_fetch",
         *           "description": "Fetches a web page or document by URL"
         *         }
         *       ]
         *     }
         */
        MarketplaceTools: {
            items: {
                tool: string;
                description: string;
            }[];
        };
        /**
         * @example {
         *       "user": {
         *         "id": 42,
         *         "address": null,
         *         "matrixUserId": "@alice:matrix.org"
         *       }
         *     }
         */
        MatrixLogin: {
            user: {
                /** @description The platform user id */
                id: number;
                /** @description The linked wallet, lowercase; null for an account without a wallet */
                address: string | null;
                /** @description The Matrix account the token was verified for */
                matrixUserId: string;
            };
        };
        /**
         * @example {
         *       "id": 42,
         *       "address": "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
         *       "matrixUserId": "@alice:matrix.org",
         *       "createdAt": "2026-11-24T10:00:00.000Z"
         *     }
         */
        Me: {
            /** @description The platform user id */
            id: number;
            /** @description The linked wallet, lowercase; null for an account without a wallet */
            address: string | null;
            /** @description The linked Matrix account (`@localpart:server`, as its homeserver names it); null when none is linked */
            matrixUserId: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        Media: {
            /** @description SHA-256 of the stored WebP, lowercase hex: the same picture, the same id */
            id: string;
            /**
             * Format: uri
             * @description Where the image is served; it never changes
             */
            url: string;
            width: number;
            height: number;
            /** @description Size of the stored WebP */
            bytes: number;
            /** @constant */
            mimeType: "image/webp";
        };
        /**
         * @example {
         *       "id": "0b5e2c1a-6f1d-4a8e-9a57-3c2d1e0f4b6a",
         *       "kind": "project.completed",
         *       "text": "Build of \"Atlas\" completed: https://api.example.org/projects/atlas/runs/5d1c…/artifact",
         *       "data": {
         *         "slug": "atlas",
         *         "runId": "5d1c3f0e-2b7a-4c9d-8e6f-1a2b3c4d5e6f",
         *         "artifactUrl": "https://api.example.org/projects/atlas/runs/5d1c…/artifact"
         *       },
         *       "createdAt": "2026-12-01T10:15:30.120Z",
         *       "sentAt": "2026-12-01T10:15:31.904Z"
         *     }
         */
        Notification: {
            /** Format: uuid */
            id: string;
            /** @description What happened: project.started, project.completed, project.failed, … */
            kind: string;
            /** @description The message as the bot sends it */
            text: string;
            /** @description The facts behind the text, per kind */
            data: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it was queued
             */
            createdAt: string;
            /** @description When the bot delivered it to the linked Matrix account; null while queued */
            sentAt: string | null;
        };
        /**
         * @example {
         *       "items": [
         *         {
         *           "id": "0b5e2c1a-6f1d-4a8e-9a57-3c2d1e0f4b6a",
         *           "kind": "project.completed",
         *           "text": "Build of \"Atlas\" completed: https://api.example.org/projects/atlas/runs/5d1c…/artifact",
         *           "data": {
         *             "slug": "atlas",
         *             "runId": "5d1c3f0e-2b7a-4c9d-8e6f-1a2b3c4d5e6f",
         *             "artifactUrl": "https://api.example.org/projects/atlas/runs/5d1c…/artifact"
         *           },
         *           "createdAt": "2026-12-01T10:15:30.120Z",
         *           "sentAt": "2026-12-01T10:15:31.904Z"
         *         },
         *         {
         *           "id": "7c9a4e2b-1d3f-4b5a-8c6d-9e0f1a2b3c4d",
         *           "kind": "project.started",
         *           "text": "Build of \"Atlas\" started.",
         *           "data": {
         *             "slug": "atlas",
         *             "runId": "5d1c3f0e-2b7a-4c9d-8e6f-1a2b3c4d5e6f"
         *           },
         *           "createdAt": "2026-12-01T10:12:02.417Z",
         *           "sentAt": "2026-12-01T10:12:03.551Z"
         *         }
         *       ],
         *       "nextCursor": null,
         *       "matrixLinked": true
         *     }
         */
        NotificationPage: {
            items: components["schemas"]["Notification"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
            /** @description Whether the caller has a linked Matrix account (`POST /auth/matrix`); without one, notifications stay queued (`sentAt` null) until an account is linked */
            matrixLinked: boolean;
        };
        OnchainUserState: {
            chainId: number;
            chainName: string;
            /** @description The FLOW token of this chain; null when CHAIN_FLOW_TOKENS names a launch of ours not linked to a token */
            tokenSlug: string | null;
            /** @description The FLOW token (the dpnm instance) */
            instance: string;
            /** @description Its DpnmProtocol: buy, sell, activate, extendTree, claimGWT */
            flowProtocol: string;
            /** @description FLOW held (indexed) */
            flowBalance: string;
            /** @description USDT held (the USDT contract’s balanceOf at blockNumber) */
            usdtBalance: string;
            /** @description GWT held (indexed) */
            gwtBalance: string;
            /** @description USDT per FLOW (indexed); flowBalance × currentPrice estimates the holding in USD */
            currentPrice: string;
            /** @description USDT one address may buy for per 24-hour window: 1 % of the pool, at least the floor */
            dailyLimitTotal: string;
            /** @description USDT still allowed in the current window (the protocol’s dailyLimitRemaining at blockNumber) */
            dailyLimitRemaining: string;
            /** @description USDT that sells may still pay out: falls with sells, rises with buys and GWT redemption */
            incomeLimitRemaining: string;
            /** @description USDT received from sells and upline fees */
            lifetimeIncome: string;
            /** @description Unix seconds when the tree activity ends; 0 = never activated */
            treeActiveUntil: number;
            /** @description Whole days left at blockNumber’s time, rounded up; 0 once lapsed */
            treeActiveDaysLeft: number;
            /** @description GWT accrued from descendants’ fees while lapsed, minted by the wallet’s claimGWT */
            claimableGWT: string;
            tree: {
                /** @description The parent position; null for the root (the creator) */
                upline: string | null;
                /** @description The three direct slots in order, null where free */
                directSlots: (string | null)[];
                /** @description Members up to 10 levels below */
                subtreeSize: number;
                /** @description Members 1..10 levels below */
                subtreeByLevel: number[];
            };
            /** @description The indexed block every figure here reflects */
            blockNumber: number;
        };
        OwnedAgent: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            description: string | null;
            tags: string[];
            imageUrl: string | null;
            endpointUrl: string;
            isPublished: boolean;
            publishedAt: string | null;
            unpublishedAt: string | null;
            listedUntil: string | null;
            monetization: ("per_call" | "subscription" | "hybrid" | "freemium") | null;
            perCallPriceFlow: number | null;
            subscriptionFlowPerMonth: number | null;
            freemiumDailyCalls: number | null;
            /** @description Premium agents answer only their owner and callers with the pro or max tier */
            premium: boolean;
            tokenSlug: string | null;
            toolPrices: {
                tool: string;
                perCallFlow: number;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "template": "dpnm",
         *       "instance": "0x9B237A41b0d563A502e86d0C69BAcBE5432C7509",
         *       "flowProtocol": "0x1c9b5F0e3a5DD2b4E1A8F0f7F0E5c6D2a3B4c5D6",
         *       "phenomenalTree": "0x4a2B3c4D5E6F708192A3b4C5D6E7F8091A2b3c4d",
         *       "gwt": "0x5b3C4D5e6f708192a3B4C5D6E7F8091A2b3c4D5E",
         *       "currentPrice": "1.0125",
         *       "poolUsdt": "182.25",
         *       "totalSupply": "180",
         *       "totalActivePositions": 3,
         *       "totalTreePositions": 4,
         *       "lifetimeFeesUsdt": "20",
         *       "lifetimeGwtMinted": "0.3",
         *       "blockNumber": 1290
         *     }
         */
        PoolOnchain: {
            /** @constant */
            template: "dpnm";
            /** @description Checksummed address; null before the launch */
            instance: string | null;
            /** @description Checksummed address; null before the launch */
            flowProtocol: string | null;
            /** @description Checksummed address; null before the launch */
            phenomenalTree: string | null;
            /** @description Checksummed address; null before the launch */
            gwt: string | null;
            /** @description USDT per whole token */
            currentPrice: string | null;
            poolUsdt: string | null;
            totalSupply: string | null;
            totalActivePositions: number | null;
            totalTreePositions: number | null;
            lifetimeFeesUsdt: string | null;
            lifetimeGwtMinted: string | null;
            /** @description The last indexed block these figures reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        Project: {
            /** Format: uuid */
            id: string;
            slug: string;
            tokenSlug: string;
            title: string;
            brief: string;
            /** @enum {string} */
            agentTemplate: "fullstack-builder" | "bot-builder" | "content-machine" | "research-agent";
            private: boolean;
            /**
             * @description idle at creation; queued and running belong to the current run; awaiting_approval while the running build waits for the owner (pendingApproval)
             * @enum {string}
             */
            status: "idle" | "queued" | "running" | "completed" | "failed" | "canceled" | "archived" | "awaiting_approval";
            /** @description The step the current run waits on (approve or reject it: docs/guides/approvals.md) */
            pendingApproval: {
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                kind: "plan" | "tool_call";
                tool: string | null;
                argsPreview: unknown;
                argsDigest: string;
                /** Format: date-time */
                expiresAt: string;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            archivedAt: string | null;
            /** @description Id of the project’s newest stream event; 0 before the first */
            lastEventId: number;
            /**
             * @description The project’s SSE stream
             * @example https://api.example.com/projects/creme-brulee-shop/stream
             */
            streamUrl: string;
            /**
             * @description The project’s live build page (HTML): title, status, plan, tool calls, messages, commits and final status, live from `streamUrl`; a private project’s page is for its owner’s session only (404 for anyone else)
             * @example https://api.example.com/p/creme-brulee-shop
             */
            pageUrl: string;
            /** @description The current (latest started) run; null before any */
            run: components["schemas"]["ProjectRunSummary"] | null;
        };
        ProjectPage: {
            items: components["schemas"]["Project"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        ProjectRunCancel: {
            /** Format: uuid */
            runId: string;
            /** @constant */
            cancelRequested: true;
        };
        ProjectRunStarted: {
            /**
             * Format: uuid
             * @description The run just queued
             */
            runId: string;
        };
        ProjectRunSummary: {
            /** Format: uuid */
            runId: string;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed" | "canceled";
            /**
             * @description What plans the build: `pending` until a worker begins the run, then `deterministic` (the template’s built-in plan) or `llm`
             * @enum {string}
             */
            planner: "pending" | "deterministic" | "llm";
            /** Format: date-time */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
            /** @description The workspace’s last commit */
            headSha: string | null;
            /** @description Why the run failed or was canceled */
            reason: string | null;
            /** @description Download of the last commit as a gzipped tarball; null until there is one */
            artifactUrl: string | null;
        };
        ProjectSubscribed: {
            /** @constant */
            subscribed: true;
        };
        PublishedAgent: {
            /** Format: uuid */
            id: string;
            slug: string;
            isPublished: boolean;
            /** Format: date-time */
            publishedAt: string;
            marketplaceUrl: string;
        };
        RolledApiKey: {
            /** Format: uuid */
            id: string;
            prefix: string;
            name: string;
            rate_limit_rpm: number;
            spend_limit_flow: string | null;
            /** @enum {string} */
            spend_period: "day" | "week" | "month" | "forever";
            spend_period_used: number;
            spend_period_resets_at: string | null;
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
            revoked: boolean;
            /** @description Set once the key is rolled: it stops working at this time */
            expires_at: string | null;
            /** @description The raw key, shown this once */
            key: string;
            rolled_from: {
                /** Format: uuid */
                id: string;
                prefix: string;
                /** Format: date-time */
                expires_at: string;
            };
        };
        SearchHit: {
            /** @enum {string} */
            kind: "agent" | "token";
            slug: string;
            name: string;
            /** @description Null for agents */
            ticker: string | null;
        };
        /**
         * @example {
         *       "user": {
         *         "id": 42,
         *         "address": "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
         *         "matrixUserId": null
         *       }
         *     }
         */
        SiweLogin: {
            user: {
                /** @description The platform user id */
                id: number;
                /** @description The wallet that signed the message, lowercase */
                address: string;
                /** @description The linked Matrix account (`@localpart:server`, as its homeserver names it); null when none is linked */
                matrixUserId: string | null;
            };
        };
        /**
         * @example {
         *       "tier": "pro",
         *       "status": "active",
         *       "renewsAt": "2026-12-25T10:00:00.000Z",
         *       "provider": "cryptobot",
         *       "features": {
         *         "priorityQueue": true,
         *         "premiumAgents": true,
         *         "fasterSse": true,
         *         "privateProjects": false,
         *         "dedicatedRuntime": false
         *       },
         *       "cancelAtPeriodEnd": false,
         *       "pendingTier": null,
         *       "graceUntil": null,
         *       "renewal": {
         *         "paymentId": "0b9e4d2c-7a61-4f3e-8c5d-1e2f3a4b5c6d",
         *         "tier": "pro",
         *         "amountUsd": 100,
         *         "checkoutUrl": "https://t.me/CryptoBot?start=IVq3ZrT8mK",
         *         "expiresAt": "2026-12-25T10:00:00.000Z"
         *       }
         *     }
         */
        Subscription: {
            /** @description Null when there is no subscription */
            tier: ("plus" | "pro" | "max") | null;
            /**
             * @description active and grace have the features; canceled (renewal unpaid) and none do not
             * @enum {string}
             */
            status: "active" | "grace" | "canceled" | "none";
            /** @description End of the current period */
            renewsAt: string | null;
            provider: ("cryptobot" | "platega" | "usdt_bep20") | null;
            features: {
                priorityQueue: boolean;
                premiumAgents: boolean;
                fasterSse: boolean;
                privateProjects: boolean;
                dedicatedRuntime: boolean;
            };
            cancelAtPeriodEnd: boolean;
            /** @description A downgrade that takes effect at renewsAt */
            pendingTier: ("plus" | "pro" | "max") | null;
            /** @description In grace: the subscription is canceled then unless the renewal is paid */
            graceUntil: string | null;
            /** @description The open renewal invoice, if one is issued and unpaid */
            renewal: {
                /** Format: uuid */
                paymentId: string;
                /** @enum {string} */
                tier: "plus" | "pro" | "max";
                amountUsd: number;
                checkoutUrl: string;
                /** Format: date-time */
                expiresAt: string;
            } | null;
        };
        SubscriptionChange: {
            subscription: components["schemas"]["Subscription"];
            /** @description Upgrade: the checkout of the pro-rated difference; the tier switches when paid */
            checkout: {
                /**
                 * Format: uuid
                 * @description This checkout’s id: the payment that activates the subscription when paid
                 */
                subscriptionId: string;
                /** @enum {string} */
                tier: "plus" | "pro" | "max";
                /** @enum {string} */
                provider: "cryptobot" | "platega" | "usdt_bep20";
                /** @description Where the payer goes to pay; for usdt_bep20 an EIP-681 URI carrying the exact amount */
                checkoutUrl: string;
                /**
                 * Format: date-time
                 * @description The invoice cannot be paid after this
                 */
                expiresAt: string;
                /** @description The pro-rated price difference */
                amountUsd: number;
            } | null;
        };
        /**
         * @example {
         *       "subscriptionId": "6f1c2a7e-5b8d-4e2f-9a41-2d7c0b9e8f13",
         *       "tier": "pro",
         *       "provider": "cryptobot",
         *       "checkoutUrl": "https://t.me/CryptoBot?start=IVyfohCLxj",
         *       "expiresAt": "2026-11-25T11:00:00.000Z"
         *     }
         */
        SubscriptionCheckout: {
            /**
             * Format: uuid
             * @description This checkout’s id: the payment that activates the subscription when paid
             */
            subscriptionId: string;
            /** @enum {string} */
            tier: "plus" | "pro" | "max";
            /** @enum {string} */
            provider: "cryptobot" | "platega" | "usdt_bep20";
            /** @description Where the payer goes to pay; for usdt_bep20 an EIP-681 URI carrying the exact amount */
            checkoutUrl: string;
            /**
             * Format: date-time
             * @description The invoice cannot be paid after this
             */
            expiresAt: string;
        };
        TokenDetail: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            ticker: string;
            /** @enum {string} */
            template: "virtuals" | "dpnm";
            /** @description Checksummed instance address once launched */
            instance: string | null;
            chainId: number;
            imageUrl: string | null;
            brief: string | null;
            /** @description Launch parameters, normalised */
            params: {
                [key: string]: unknown;
            };
            /**
             * @description `pending` until the launch is seen on chain; then live, graduating, ...
             * @enum {string}
             */
            state: "pending" | "live" | "graduating" | "sentient" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Hex calldata of the factory’s launch function (GET /chains has the factory); present only while the token has no instance */
            pendingLaunchTx?: string;
            /** @description Set by the creator (PATCH /tokens/:slug) */
            description: string | null;
            links: components["schemas"]["TokenLinks"];
            /** @description FLOW accrued for the token’s holders (5 % of linked agents’ earnings), not yet distributed */
            holderRewardPoolFlow: number;
            /** @description The latest distribution of the pool; null before the first */
            lastHolderRewardDistribution: {
                /** Format: uuid */
                id: string;
                /** @description The UTC day (YYYY-MM-DD): at most one distribution per day */
                period: string;
                /** @description Shares follow the indexed balances at this block */
                blockNumber: number;
                /** @description FLOW shared among the platform users holding the token */
                distributedFlow: number;
                recipients: number;
                /** Format: date-time */
                createdAt: string;
                /** @description Null while payouts are being credited */
                completedAt: string | null;
            } | null;
            /** @description Where pendingLaunchTx goes; null once the token has an instance */
            launchFactory: string | null;
            progressToGraduation?: number | null;
            lockedPaymentToken?: string | null;
            graduationThreshold?: string | null;
            /** @description ISO 8601 duration at the last 24 h rate of locked payment; null without buying */
            estimatedTimeToGraduation?: string | null;
            lastTradePrice?: string | null;
            /** @description Checksummed address; null before the launch */
            flowProtocol?: string | null;
            /** @description Checksummed address; null before the launch */
            phenomenalTree?: string | null;
            /** @description Checksummed address; null before the launch */
            gwt?: string | null;
            currentPrice?: string | null;
            poolUsdt?: string | null;
            totalSupply?: string | null;
            treeActivePositions?: number | null;
            holdersCount: number | null;
            /** @description The last indexed block these figures reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        TokenLinks: {
            website: string | null;
            twitter: string | null;
            telegram: string | null;
        };
        TokenListItem: {
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            ticker: string;
            /** @enum {string} */
            template: "virtuals" | "dpnm";
            /** @description Checksummed instance address once launched */
            instance: string | null;
            chainId: number;
            imageUrl: string | null;
            brief: string | null;
            /** @description Launch parameters, normalised */
            params: {
                [key: string]: unknown;
            };
            /**
             * @description `pending` until the launch is seen on chain; then live, graduating, ...
             * @enum {string}
             */
            state: "pending" | "live" | "graduating" | "sentient" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** @description Hex calldata of the factory’s launch function (GET /chains has the factory); present only while the token has no instance */
            pendingLaunchTx?: string;
            /** @description The board’s figures from the chain index; null before the launch is indexed */
            market: components["schemas"]["TokenMarket"] | null;
        };
        TokenMarket: {
            /**
             * @description The unit of price, marketCap and volume24h
             * @enum {string}
             */
            quoteSymbol: "VIRTUAL" | "USDT";
            /** @description Spot price per whole token, decimal string in whole units */
            price: string;
            /** @description price × circulating supply (the supply outside the curve and pool) */
            marketCap: string;
            /** @description Quote volume of the last 24 hours of chain time, to the minute */
            volume24h: string;
            /** @description (price − the price 24 hours before) / the price 24 hours before: 0.25 is +25 % */
            priceChange24h: number;
            trades24h: number;
            holdersCount: number;
            /** @description virtuals: locked payment over the graduation threshold, 0 to 1; null for dpnm */
            progressToGraduation: number | null;
            /** @description ISO 8601; null before the first trade */
            lastTradeAt: string | null;
        };
        /**
         * @example {
         *       "name": "Atlas",
         *       "symbol": "ATLAS",
         *       "description": "Atlas funds community research; holders share 5 % of its agents’ earnings.",
         *       "image": "https://api.example.com/media/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
         *       "external_url": "https://atlas.example.com",
         *       "properties": {
         *         "files": [
         *           {
         *             "uri": "https://api.example.com/media/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
         *             "type": "image/webp"
         *           }
         *         ],
         *         "category": "image"
         *       },
         *       "links": {
         *         "website": "https://atlas.example.com",
         *         "twitter": "https://x.com/atlas",
         *         "telegram": null
         *       }
         *     }
         */
        TokenMetadata: {
            name: string;
            /** @description The ticker */
            symbol: string;
            /** @description The description, else the brief, else empty */
            description: string;
            /** @description The image URL, empty when there is none */
            image: string;
            /** @description The token’s website, else its page on this API (GET /tokens/:slug) */
            external_url: string;
            properties: {
                /** @description The image, when there is one */
                files: {
                    uri: string;
                    /** @description MIME type */
                    type: string;
                }[];
                /** @constant */
                category: "image";
            };
            links: components["schemas"]["TokenLinks"];
        };
        /**
         * @example {
         *       "suggestions": [
         *         {
         *           "name": "Paper Trail",
         *           "ticker": "PAPER",
         *           "description": "A research agent that reads new DeFi papers daily and summarises them.",
         *           "tags": [
         *             "research",
         *             "defi"
         *           ]
         *         }
         *       ],
         *       "model": "gpt-4o-mini",
         *       "requestId": "5b0c2d7e-9a41-4c3f-8e2b-1f6a7d9c0e34"
         *     }
         */
        TokenMetadataSuggestions: {
            suggestions: {
                name: string;
                /** @description Follows the ticker rules; not used by any token yet */
                ticker: string;
                description: string;
                tags: string[];
            }[];
            /** @description The model that answered */
            model: string;
            /** @description This request’s id, as in the logs and X-Request-Id */
            requestId: string;
        };
        TokenOnchain: components["schemas"]["CurveOnchain"] | components["schemas"]["PoolOnchain"];
        TokenPage: {
            items: components["schemas"]["TokenListItem"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        Trade: {
            /** @description <blockNumber>-<logIndex>: unique per chain */
            id: string;
            /** @enum {string} */
            kind: "buy" | "sell" | "graduation";
            /** @description Checksummed; a graduation names the trader whose buy graduated the curve */
            trader: string | null;
            /** @description Tokens bought or sold; a graduation: the tokens left on the curve */
            amountToken: string;
            /** @description Payment token (virtuals) or USDT (dpnm), whole units; a graduation: the locked payment */
            amountPayment: string;
            /** @description Payment per whole token */
            price: string;
            txHash: string;
            blockNumber: number;
            logIndex: number;
            /**
             * Format: date-time
             * @description The block’s time
             */
            timestamp: string;
        };
        /**
         * @description Newest first
         * @example {
         *       "items": [
         *         {
         *           "id": "1283-2",
         *           "kind": "buy",
         *           "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
         *           "amountToken": "9990009.990009990009990009",
         *           "amountPayment": "10",
         *           "price": "0.000001001",
         *           "txHash": "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
         *           "blockNumber": 1283,
         *           "logIndex": 2,
         *           "timestamp": "2026-11-24T10:15:00.000Z"
         *         }
         *       ],
         *       "nextCursor": null,
         *       "blockNumber": 1284
         *     }
         */
        TradePage: {
            items: components["schemas"]["Trade"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
            /** @description The last indexed block these figures reflect; null before the first indexed range */
            blockNumber: number | null;
        };
        /**
         * @example {
         *       "chainId": 31337,
         *       "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
         *       "upline": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
         *       "subtreeByLevel": [
         *         1,
         *         1,
         *         0,
         *         0,
         *         0,
         *         0,
         *         0,
         *         0,
         *         0,
         *         0
         *       ],
         *       "lifetimeEarnedByLevel": [
         *         "1",
         *         "0.5",
         *         "0",
         *         "0",
         *         "0",
         *         "0",
         *         "0",
         *         "0",
         *         "0",
         *         "0"
         *       ],
         *       "directs": [
         *         {
         *           "address": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
         *           "active": true,
         *           "subtreeSize": 1,
         *           "directs": [
         *             {
         *               "address": "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
         *               "active": false,
         *               "subtreeSize": 0
         *             },
         *             null,
         *             null
         *           ]
         *         },
         *         null,
         *         null
         *       ],
         *       "blockNumber": 1284
         *     }
         */
        Tree: {
            chainId: number;
            /** @description Checksummed address */
            address: string;
            /** @description The parent position; null for the root (the creator) */
            upline: string | null;
            /** @description Members 1..10 levels below */
            subtreeByLevel: number[];
            /** @description USDT paid from the fees of members 1..10 levels below, since activation */
            lifetimeEarnedByLevel: string[];
            /** @description The three direct slots, nested to `depth` levels */
            directs: (components["schemas"]["TreeMember"] | null)[];
            /** @description The indexed block every figure here reflects */
            blockNumber: number;
        };
        TreeMember: {
            /** @description Checksummed address */
            address: string;
            /** @description Tree activity lasts past blockNumber’s time */
            active: boolean;
            /** @description Members up to 10 levels below */
            subtreeSize: number;
            /** @description Its three slots, while depth remains; absent at the last level */
            directs?: (components["schemas"]["TreeMember"] | null)[];
        };
        UnpublishedAgent: {
            /** Format: uuid */
            id: string;
            slug: string;
            /** @constant */
            isPublished: false;
            unpublishedAt: string | null;
            /** @description Existing callers keep access until then (the start of the next UTC month) */
            listedUntil: string | null;
        };
        Webhook: {
            /** Format: uuid */
            id: string;
            url: string;
            /** @description Empty means every event, including future ones */
            events: string[];
            /** Format: date-time */
            created_at: string;
            /** @description The last delivery that failed after all its retries; null if none has */
            last_error: {
                /** Format: date-time */
                at: string;
                delivery_id: string;
                /** @description The receiver’s status; null on network error */
                status: number | null;
                error: string;
            } | null;
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            event: string;
            /** @description The envelope id (`webhook-id`); receivers dedupe by it */
            event_id: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: {
                attempt: number;
                /** Format: date-time */
                started_at: string;
                status_code: number | null;
                duration_ms: number;
                error: string | null;
            }[];
            /** Format: date-time */
            created_at: string;
            completed_at: string | null;
        };
        WebhookDeliveryPage: {
            items: components["schemas"]["WebhookDelivery"][];
            /** @description Opaque; null on the last page */
            nextCursor: string | null;
        };
        WebhookDeliveryStarted: {
            /** Format: uuid */
            delivery_id: string;
        };
        WebhookEventCatalog: {
            events: string[];
        };
        WebhookList: {
            items: components["schemas"]["Webhook"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description Requests per minute of the bucket this request counted against */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the bucket this minute */
        "X-RateLimit-Remaining": number;
        /** @description When the bucket refills (ISO 8601) */
        "X-RateLimit-Reset": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Home"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgents: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @description 0 to 10 tags, each 1 to 32 characters of a-z, 0-9 and - (trimmed and lowercased first; duplicates dropped) */
                    tags?: string[];
                    /** @description An https image URL, or null for none */
                    imageUrl?: string | null;
                    /** @description An image uploaded with POST /media, instead of imageUrl: its url becomes imageUrl */
                    imageMediaId?: string;
                    /** @description Where the owner’s agent runtime answers; https, never a private address */
                    endpointUrl: string;
                    /** @description Premium agents answer only their owner and callers with the pro or max tier; false when omitted */
                    premium?: boolean;
                    /** @description Derived from the name when omitted */
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedAgent"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_url`: The URL is not https, does not resolve, or resolves to a private address
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `slug_taken`: The slug asked for is already used
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    patchAgentsBySlug: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @description 0 to 10 tags, each 1 to 32 characters of a-z, 0-9 and - (trimmed and lowercased first; duplicates dropped) */
                    tags?: string[];
                    /** @description An https image URL, or null for none */
                    imageUrl?: string | null;
                    /** @description An image uploaded with POST /media, instead of imageUrl: its url becomes imageUrl */
                    imageMediaId?: string;
                    /** @description Where the owner’s agent runtime answers; https, never a private address */
                    endpointUrl?: string;
                    /** @description Premium agents answer only their owner and callers with the pro or max tier */
                    premium?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnedAgent"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_url`: The URL is not https, does not resolve, or resolves to a private address
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugInvoke: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Anything JSON; passed to the agent as is */
                    input: unknown;
                    /** @description Tools the agent may use in this call (default: all platform tools) */
                    tools?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCallResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `tool_unknown`: A tool that is not a platform tool (GET /marketplace/tools)
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Payment Required. The error code is one of:
             *
             *     - `subscription_required`: The agent is subscription-only and the caller has no active subscription
             *     - `insufficient_flow`: Your spendable FLOW balance does not cover the price; nothing charged
             *     - `spend_limit_reached`: This API key’s FLOW spend cap for its period would be passed; nothing charged
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `feature_not_in_tier`: The caller’s subscription tier does not include this feature
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `agent_not_published`: The agent is a draft or was unpublished
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `free_quota_exhausted`: Today’s free calls (freemium) are used and the agent has no per-call price
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `agent_failed`: The agent’s endpoint failed, answered an error or an invalid body; nothing charged
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gateway Timeout. The error code is one of:
             *
             *     - `agent_timeout`: The agent did not answer within AGENT_CALL_TIMEOUT_MS; nothing charged
             */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugPublish: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Required: per_call, subscription, hybrid or freemium
                     * @enum {string}
                     */
                    monetization?: "per_call" | "subscription" | "hybrid" | "freemium";
                    /** @description FLOW per call: required for per_call and hybrid; for freemium the price of calls beyond the daily free quota (without it they are refused); not allowed for subscription */
                    perCallPriceFlow?: number;
                    /** @description FLOW per month: required for subscription and hybrid */
                    subscriptionFlowPerMonth?: number;
                    /** @description Free calls per caller and UTC day: required for freemium */
                    freemiumDailyCalls?: number;
                    /** @description 1 to 10 tags, each 1 to 32 characters of a-z, 0-9 and - (trimmed and lowercased first; duplicates dropped) */
                    tags: string[];
                    /** @description Links one of the caller’s tokens; null unlinks; omitted keeps the current link */
                    tokenSlug?: string | null;
                    /** @description Premium agents answer only their owner and callers with the pro or max tier; omitted keeps the current setting */
                    premium?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishedAgent"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_monetization`: The prices do not fit the monetization model (a required one missing, an extra)
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             *     - `token_no_match`: The token named belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugRating: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rating: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRatingResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `rating_not_allowed`: Only callers with a succeeded call may rate an agent, and never its owner
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugSubscribe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentSubscription"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Payment Required. The error code is one of:
             *
             *     - `insufficient_flow`: Your spendable FLOW balance does not cover the price; nothing charged
             *     - `spend_limit_reached`: This API key’s FLOW spend cap for its period would be passed; nothing charged
             */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `feature_not_in_tier`: The caller’s subscription tier does not include this feature
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `agent_not_published`: The agent is a draft or was unpublished
             *     - `subscription_not_offered`: The agent is not priced with a subscription (subscription or hybrid)
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugToolPrices: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The whole price list: it replaces the previous one */
                    tools: {
                        tool: string;
                        perCallFlow: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentToolPrices"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `tool_unknown`: A tool that is not a platform tool (GET /marketplace/tools)
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAgentsBySlugUnpublish: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnpublishedAgent"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAiAgentMetadata: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the project is, in the creator’s words: sent to the model as data */
                    brief: string;
                    /** @description Fixed by the creator: the suggestion uses it as given */
                    keep?: {
                        name?: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentMetadataSuggestions"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `ai_invalid_output`: The model’s answer broke the rules twice (once more after being told what was wrong); nothing was suggested
             *     - `ai_refused`: The model declined to write metadata for this brief
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `ai_unavailable`: The model could not be asked (busy, failing, too slow, or none configured); the message says which, Retry-After when to try again
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAiTokenMetadata: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the project is, in the creator’s words: sent to the model as data */
                    brief: string;
                    /** @enum {string} */
                    template: "virtuals" | "dpnm";
                    /** @description Fixed by the creator: every suggestion uses it as given */
                    keep?: {
                        name?: string;
                        /** @description 3 to 6 characters A-Z, 0-9; must not be taken */
                        ticker?: string;
                    };
                    /**
                     * @description How many suggestions
                     * @default 1
                     */
                    variants?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenMetadataSuggestions"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_ticker`: The ticker is not 3 to 6 characters of A-Z and 0-9
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `ticker_taken`: Another token on this chain has this ticker
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `ai_invalid_output`: The model’s answer broke the rules twice (once more after being told what was wrong); nothing was suggested
             *     - `ai_refused`: The model declined to write metadata for this brief
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `ai_unavailable`: The model could not be asked (busy, failing, too slow, or none configured); the message says which, Retry-After when to try again
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postApiV1DeleteMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotDeleteMessageRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSendMessageResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `event_not_found`: The room has no such event the bot can see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1EditMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotEditMessageRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSendMessageResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             *     - `not_own_message`: The event is not a text message the bot sent: only those can be edited
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `event_not_found`: The room has no such event the bot can see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1InviteUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotInviteUserRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotInviteUserResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `already_member`: The user is already in the room
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1JoinRoom: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotJoinRoomRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotJoinRoomResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    getApiV1Rooms: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 20 by default, at most 100
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description The next_cursor of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotRoomsResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    getApiV1RoomsByIdMembers: {
        parameters: {
            query?: {
                /**
                 * @description Page size, 20 by default, at most 100
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description The next_cursor of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /** @example join */
                membership?: "join" | "invite";
            };
            header?: never;
            path: {
                /**
                 * @description A room id
                 * @example !kXwqLtBfrGnQhvTuZs:example.org
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotMembersResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1SendDocument: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotSendDocumentRequestInput"];
                "multipart/form-data": {
                    /** @description The room to send to; the bot must have joined it */
                    room_id: string;
                    /** @description The `media.media_id` of an earlier answer: sent again without a new upload */
                    media_id?: string;
                    /** @description Shown with the file; the same rules as `text` */
                    caption?: string;
                    /** @description The caption as markdown, as in sendMessage */
                    markdown?: boolean;
                    /** @description The event this message replies to */
                    reply_to?: string;
                    /** @description The name clients show and save the file under; by default the uploaded part’s name, the URL’s last segment or the name it was first sent under */
                    filename?: string;
                    /** @description An https URL the gateway fetches the document from (public addresses only; up to 3 redirects, each checked again) */
                    document_url?: string;
                    /**
                     * Format: binary
                     * @description The file (multipart only), at most 50 MiB
                     */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSendFileResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `media_not_found`: No media of this bot token has the `media_id`
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Content Too Large. The error code is one of:
             *
             *     - `file_too_large`: The file is over the route’s limit (photos 10 MiB and 32 megapixels, documents 50 MiB) or the homeserver’s
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unsupported Media Type. The error code is one of:
             *
             *     - `unsupported_media_type`: A photo that is not PNG, JPEG, GIF or WebP (read from its bytes), or a body that is neither JSON nor multipart/form-data
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             *     - `fetch_failed`: The `photo_url` or `document_url` could not be fetched; `detail` says why
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1SendMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotSendMessageRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSendMessageResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1SendPhoto: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotSendPhotoRequestInput"];
                "multipart/form-data": {
                    /** @description The room to send to; the bot must have joined it */
                    room_id: string;
                    /** @description The `media.media_id` of an earlier answer: sent again without a new upload */
                    media_id?: string;
                    /** @description Shown with the file; the same rules as `text` */
                    caption?: string;
                    /** @description The caption as markdown, as in sendMessage */
                    markdown?: boolean;
                    /** @description The event this message replies to */
                    reply_to?: string;
                    /** @description The name clients show and save the file under; by default the uploaded part’s name, the URL’s last segment or the name it was first sent under */
                    filename?: string;
                    /** @description An https URL the gateway fetches the photo from (public addresses only; up to 3 redirects, each checked again) */
                    photo_url?: string;
                    /**
                     * Format: binary
                     * @description The image (multipart only): PNG, JPEG, GIF or WebP, at most 10 MiB
                     */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSendFileResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `media_not_found`: No media of this bot token has the `media_id`
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `room_not_found`: The homeserver does not know the room or alias
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Content Too Large. The error code is one of:
             *
             *     - `file_too_large`: The file is over the route’s limit (photos 10 MiB and 32 megapixels, documents 50 MiB) or the homeserver’s
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unsupported Media Type. The error code is one of:
             *
             *     - `unsupported_media_type`: A photo that is not PNG, JPEG, GIF or WebP (read from its bytes), or a body that is neither JSON nor multipart/form-data
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             *     - `fetch_failed`: The `photo_url` or `document_url` could not be fetched; `detail` says why
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postApiV1SetReaction: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retried send safe: the same key gives the same event_id and one message (it becomes the Matrix transaction id)
                 * @example notify-build-3f1c2a9e
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BotSetReactionRequestInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotSetReactionResult"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_body`: The body (or a header) is invalid; `detail` names the field
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthorized`: X-Service-Bot-Token is missing or wrong
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The bot may not do this in the room (not joined, not invited, not public)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `event_not_found`: The room has no such event the bot can see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `send_failed`: The homeserver failed or is unreachable; a retry is safe
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BotError"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Logged out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAuthMatrix: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description An OpenID token of the Matrix account: `access_token` from `POST /_matrix/client/v3/user/{userId}/openid/request_token` on its homeserver
                     * @example kHYYZvzPLlDUtPoJhpYnYkzG
                     */
                    openidToken: string;
                    /**
                     * @description The `matrix_server_name` of that same answer; it must be one of the homeservers this deployment accepts (MATRIX_LOGIN_HOMESERVERS), compared case-insensitively
                     * @example matrix.org
                     */
                    homeserver: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatrixLogin"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `homeserver_not_allowed`: The homeserver is not one whose users may sign in here
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `matrix_token_invalid`: The homeserver does not know this OpenID token (expired, forged, other server)
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `matrix_account_linked`: This Matrix account is already linked to another user
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `matrix_homeserver_failed`: The homeserver could not be asked (unreachable, too slow, broken answer)
             */
            502: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAuthNonce: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        nonce: string;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postAuthVerify: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message: string;
                    signature: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiweLogin"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `siwe_invalid`: The SIWE message or its signature is not acceptable here (domain, URI, chain, time, signature)
             *     - `nonce_invalid`: The SIWE nonce is unknown, expired (10 minutes) or already used
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `wallet_linked`: This wallet is already linked to another user
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getChains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChainList"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDexscreenerAsset: {
        parameters: {
            query: {
                /**
                 * @description The chain (a configured one); the lowest configured chain id by default
                 * @example 31337
                 */
                chainId?: number;
                /**
                 * @description The asset’s or pair’s address
                 * @example 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4
                 */
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DexScreenerAsset"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `not_found`: No route has this path
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDexscreenerEvents: {
        parameters: {
            query: {
                /**
                 * @description The chain (a configured one); the lowest configured chain id by default
                 * @example 31337
                 */
                chainId?: number;
                /** @example 3 */
                fromBlock: number;
                /** @example 3 */
                toBlock: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DexScreenerEvents"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDexscreenerLatestBlock: {
        parameters: {
            query?: {
                /**
                 * @description The chain (a configured one); the lowest configured chain id by default
                 * @example 31337
                 */
                chainId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DexScreenerLatestBlock"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDexscreenerPair: {
        parameters: {
            query: {
                /**
                 * @description The chain (a configured one); the lowest configured chain id by default
                 * @example 31337
                 */
                chainId?: number;
                /**
                 * @description The asset’s or pair’s address
                 * @example 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4
                 */
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DexScreenerPair"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `not_found`: No route has this path
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postFlowTopups: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One of cryptobot, platega, usdt_bep20 (only those enabled in this deployment)
                     * @example cryptobot
                     */
                    provider: string;
                    /** @example 25 */
                    amountUsd: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowTopup"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `provider_unsupported`: The payment provider is not enabled on this deployment
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `payment_provider_failed`: The payment provider did not create the invoice; try again or another provider
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postInternalFlowCredit: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    userId: number;
                    /** @description FLOW to credit, > 0; more than 6 decimals are rounded down */
                    amountFlow: string | number;
                    /** @enum {string} */
                    reason: "topup" | "quest" | "grant" | "refund";
                    /** @description The caller’s unique id for this credit (e.g. the provider payment id) */
                    refId: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowCredit"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowCredit"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `forbidden`: The credential is valid but may not use this endpoint
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `user_not_found`: No user has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `ref_id_conflict`: This refId was already used for a credit with other values
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLedger: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Only entries with this reason
                 * @example topup
                 */
                reason?: "topup" | "call" | "grant" | "payout" | "refund" | "quest";
                /**
                 * @description Entries created at or after this instant (inclusive)
                 * @example 2026-11-24T00:00:00.000Z
                 */
                from?: string;
                /**
                 * @description Entries created before this instant (exclusive)
                 * @example 2026-11-24T10:00:00.000Z
                 */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMarketplaceAgents: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Only agents with this tag
                 * @example research
                 */
                tag?: string;
                /**
                 * @description trending: succeeded calls in the last 7 UTC days (today included), ties by newest; new: newest published first; top_earning: FLOW billed in the last 30 UTC days; top_rated: average rating, unrated agents last, ties by number of ratings
                 * @example trending
                 */
                sort?: "trending" | "new" | "top_earning" | "top_rated";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AgentListItem"][];
                        /** @description Opaque; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMarketplaceAgentsBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example research-assistant
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetail"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `agent_not_found`: No agent with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMarketplaceTools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceTools"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeAgents: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["OwnedAgent"][];
                        /** @description Opaque; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeAnalytics: {
        parameters: {
            query?: {
                /**
                 * @description UTC days to cover, ending today (included); 30 by default. Basic analytics (plus) allow at most 30 (more is 403 feature_not_in_tier), advanced (pro, max) up to 365
                 * @example 30
                 */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analytics"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `feature_not_in_tier`: The caller’s subscription tier does not include this feature
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeApiKeys: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description Requests per minute; 0 means the key counts against its owner’s bucket
                     * @default 60
                     */
                    rate_limit_rpm?: number;
                    /** @description FLOW cap per spend period, e.g. "25.5"; omitted or null means no cap */
                    spend_limit_flow?: (string | number) | null;
                    /**
                     * @default month
                     * @enum {string}
                     */
                    spend_period?: "day" | "week" | "month" | "forever";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `api_key_limit_reached`: The caller already holds the most active API keys allowed; revoke one first
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMeApiKeysById: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `api_key_not_found`: No active API key of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    patchMeApiKeysById: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Requests per minute; 0 means the key counts against its owner’s bucket */
                    rate_limit_rpm?: number;
                    /** @description FLOW cap per spend period, e.g. "25.5"; omitted or null means no cap */
                    spend_limit_flow?: (string | number) | null;
                    /** @enum {string} */
                    spend_period?: "day" | "week" | "month" | "forever";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `api_key_not_found`: No active API key of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeApiKeysByIdRecent: {
        parameters: {
            query?: {
                /**
                 * @description 50 by default; values above 200 are clamped
                 * @example 50
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /** @example 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRecentCalls"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `api_key_not_found`: No active API key of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeApiKeysByIdRoll: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description How long the old key keeps working; 24 h by default, at most 7 days
                     * @default 86400
                     */
                    grace_seconds?: number;
                } | null;
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolledApiKey"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `api_key_not_found`: No active API key of the caller has this id
             */
            404: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `api_key_limit_reached`: The caller already holds the most active API keys allowed; revoke one first
             *     - `api_key_rolled`: This key was already rolled; roll its successor instead
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeApiKeysByIdUsage: {
        parameters: {
            query?: {
                /** @example month */
                since?: "day" | "week" | "month" | "all";
            };
            header?: never;
            path: {
                /** @example 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyUsage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `api_key_not_found`: No active API key of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeApprovals: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description pending, resolved (decided, expired or canceled) or all; newest first
                 * @example pending
                 */
                status?: "pending" | "resolved" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeFlowBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowBalance"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeFlowOnchain: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowOnchain"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeNotifications: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 50 by default; values above 100 are clamped
                 * @example 50
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putMePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    patchMePayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMePayoutsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any path below /me/payouts
                 * @example requests/7
                 */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putMePayoutsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any path below /me/payouts
                 * @example requests/7
                 */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMePayoutsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any path below /me/payouts
                 * @example requests/7
                 */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMePayoutsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any path below /me/payouts
                 * @example requests/7
                 */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    patchMePayoutsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any path below /me/payouts
                 * @example requests/7
                 */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Gone. The error code is one of:
             *
             *     - `gone`: The endpoint was removed; the message says what replaces it
             */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeProjects: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeSubscriptionCancel: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `subscription_not_found`: The caller has no active or grace subscription
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeSubscriptionChange: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One of plus, pro, max
                     * @example pro
                     */
                    tier: string;
                    /**
                     * @description For an upgrade: who takes the pro-rated payment (default: the subscription’s)
                     * @example cryptobot
                     */
                    provider?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionChange"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `tier_unknown`: Not a tier: plus, pro or max
             *     - `provider_unsupported`: The payment provider is not enabled on this deployment
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `subscription_not_found`: The caller has no active or grace subscription
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `subscription_past_due`: The renewal is unpaid (grace): pay it before upgrading
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `payment_provider_failed`: The payment provider did not create the invoice; try again or another provider
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeSubscriptionResume: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `subscription_not_found`: The caller has no active or grace subscription
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeTree: {
        parameters: {
            query?: {
                /**
                 * @description Levels of `directs` to nest, 1..10
                 * @example 3
                 */
                depth?: number;
                /**
                 * @description Default: the first configured chain (lowest id) with a FLOW token
                 * @example 31337
                 */
                chainId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tree"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `address_not_activated`: The caller’s wallet has no place in a FLOW tree (or the account has no wallet)
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description https; must resolve to a public address (WEBHOOK_ALLOWED_HOSTS exempts hosts) */
                    url: string;
                    /** @description Event names from GET /me/webhooks/events; empty or omitted means every event */
                    events?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_url`: The URL is not https, does not resolve, or resolves to a private address
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `webhook_limit_reached`: The caller already holds the most webhook subscriptions allowed
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             *     - `idempotency_replay_unavailable`: The request was already processed, but its stored response (which held a secret) can no longer be opened; it is not run again
             */
            409: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    /** @description This route shows a secret once: no cache may store any of its responses */
                    "Cache-Control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeWebhooksEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventCatalog"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMeWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 2c9b7a1e-5d4f-4e3a-8b6c-9f0e1d2a3b4c */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `webhook_not_found`: No live webhook subscription of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /** @example 8a1f3e5c-7b9d-4c2e-a6f4-3b5d7e9f1a2c */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `webhook_not_found`: No live webhook subscription of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeWebhooksByIdDeliveriesByDeliveryIdRedeliver: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 8a1f3e5c-7b9d-4c2e-a6f4-3b5d7e9f1a2c */
                id: string;
                /** @example 8a1f3e5c-7b9d-4c2e-a6f4-3b5d7e9f1a2c */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryStarted"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `webhook_not_found`: No live webhook subscription of the caller has this id
             *     - `delivery_not_found`: This subscription has no delivery with this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeWebhooksByIdTest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example 2c9b7a1e-5d4f-4e3a-8b6c-9f0e1d2a3b4c */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryStarted"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `webhook_not_found`: No live webhook subscription of the caller has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMedia: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image: PNG, JPEG, WebP or GIF, at most 5 MiB
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Media"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Media"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `image_too_large`: The image has more than 4096 pixels on a side, or would decode to more than 4096 × 4096
             *     - `image_too_small`: The image has fewer than 64 pixels on a side
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Content Too Large. The error code is one of:
             *
             *     - `payload_too_large`: The body is larger than BODY_LIMIT_BYTES
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unsupported Media Type. The error code is one of:
             *
             *     - `unsupported_media_type`: A body was sent with a Content-Type other than application/json
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMediaById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The media id (64 lowercase hex digits)
                 * @example 5e8a1c3f-9b2d-4f6e-8a7c-1d3b5f7e9a24
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The WebP image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/webp": string;
                };
            };
            /** @description The client’s copy (If-None-Match) is current; no body */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `media_not_found`: No uploaded media has this id
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPAssetsByFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The asset’s name
                 * @example build-page.js
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                    "text/css": string;
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postPaymentsByProviderCallback: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description cryptobot or platega
                 * @example cryptobot
                 */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `provider_unsupported`: The payment provider is not enabled on this deployment
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `invalid_signature`: The callback is not signed by the provider; nothing changed
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjects: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description One of the caller’s tokens; it must have no project that is not archived */
                    tokenSlug: string;
                    /** @description 1 to 120 characters (trimmed); the slug derives from it */
                    title: string;
                    /** @description One paragraph (no blank line), 1 to 2000 characters (trimmed) */
                    brief: string;
                    /**
                     * @description One of fullstack-builder, bot-builder, content-machine, research-agent; anything else is template_unknown
                     * @enum {string}
                     */
                    agentTemplate: "fullstack-builder" | "bot-builder" | "content-machine" | "research-agent";
                    /**
                     * @description Visible to its owner only; needs the max tier (privateProjects)
                     * @default false
                     */
                    private?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `template_unknown`: Not a known template, or the template has no launch factory on that chain
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `token_no_match`: The token named belongs to another user
             *     - `feature_not_in_tier`: The caller’s subscription tier does not include this feature
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `project_locked`: The token already has a project that is not archived
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlugApprovalAudit: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalAuditPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlugApprovalPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPolicy"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    putProjectsBySlugApprovalPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description ask_risky: workspace tools run, anything reaching outside asks; ask_all: every tool asks; autonomous: nothing asks (rules still apply)
                     * @default ask_risky
                     * @enum {string}
                     */
                    mode?: "ask_risky" | "ask_all" | "autonomous";
                    /**
                     * @description Matched before the mode; deny wins over any other rule for the same tool
                     * @default []
                     */
                    rules?: {
                        /** @description A build tool, e.g. fetch_url */
                        tool: string;
                        /** @enum {string} */
                        action: "allow" | "ask" | "deny";
                    }[];
                    /**
                     * @description Stop after the plan until the owner approves it
                     * @default false
                     */
                    planApproval?: boolean;
                    /**
                     * @description How long a request waits for the owner
                     * @default 86400
                     */
                    timeoutSeconds?: number;
                    /**
                     * @description reject: the step is refused and the build goes on; fail: the build fails
                     * @default reject
                     * @enum {string}
                     */
                    onTimeout?: "reject" | "fail";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPolicy"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlugApprovals: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description pending, resolved (decided, expired or canceled) or all; newest first
                 * @example pending
                 */
                status?: "pending" | "resolved" | "all";
            };
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugApprovalsByIdApprove: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
                /** @example c5a2e8f1-3d6b-4a9c-8e7f-1b4d2c6a9e30 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    argsDigest: string;
                    /**
                     * @description Also allow later calls of the same tool: for the rest of this run, or in the project (an allow rule added to its policy; a deny rule still wins)
                     * @enum {string}
                     */
                    remember?: "run" | "project";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalRequest"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `approval_not_found`: No approval request with this id in this project of the caller
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `approval_stale`: The argsDigest sent is not the request’s: the decision would approve other arguments than the ones shown
             *     - `approval_resolved`: The request is no longer pending: decided otherwise, expired or canceled
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugApprovalsByIdReject: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
                /** @example c5a2e8f1-3d6b-4a9c-8e7f-1b4d2c6a9e30 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Told to the build’s brain with the refusal */
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalRequest"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `approval_not_found`: No approval request with this id in this project of the caller
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `approval_resolved`: The request is no longer pending: decided otherwise, expired or canceled
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugArchive: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `run_in_progress`: A build run is queued or running; cancel it or wait for it to end
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugCancel: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRunCancel"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `no_active_run`: The project has no queued or running build to cancel
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlugRunsByRunIdArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
                /**
                 * @description The run’s id (a UUID)
                 * @example 3f1c2a9e-8b7d-4c6e-9a5f-2d4b8e7c1a03
                 */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run’s last commit as a gzipped tarball (attachment) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description The client’s copy (If-None-Match) is current; no body */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             *     - `artifact_not_found`: This run has no artifact (it made no commit, or it is not this project’s run)
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugStart: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRunStarted"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `run_in_progress`: A build run is queued or running; cancel it or wait for it to end
             *     - `project_archived`: The project is archived
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProjectsBySlugStream: {
        parameters: {
            query?: {
                /**
                 * @description The same as the Last-Event-ID header, for clients that cannot set headers; the header wins when both are present
                 * @example 42
                 */
                lastEventId?: string;
            };
            header?: {
                /**
                 * @description The last event id the client has; only newer events are sent
                 * @example 42
                 */
                "last-event-id"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Nothing more will come: the client has every event and the last run is done or the project is archived (also an archived project without events) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `private_forbidden`: The stream of a private project is for its owner only
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postProjectsBySlugSubscribe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectSubscribed"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `project_archived`: The project is archived
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteProjectsBySlugSubscribe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas-landing-page
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not (or no longer) subscribed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `project_not_found`: No project with this slug that the caller may see
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                        checks: {
                            /** @enum {string} */
                            postgres: "ok";
                            /** @enum {string} */
                            redis: "ok";
                            /** @enum {string} */
                            temporal: "ok";
                        };
                    };
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSearch: {
        parameters: {
            query: {
                /**
                 * @description Substring to find, case-insensitive; `%`, `_` and `\` match themselves
                 * @example atlas
                 */
                q: string;
                /** @example agent */
                type?: "agent" | "token" | "all";
                /**
                 * @description 20 by default; values above 50 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        items: components["schemas"]["SearchHit"][];
                    };
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postSubscriptionsCheckout: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One of plus, pro, max
                     * @example pro
                     */
                    tier: string;
                    /**
                     * @description One of cryptobot, platega, usdt_bep20 (only those enabled in this deployment)
                     * @example cryptobot
                     */
                    provider: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCheckout"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `tier_unknown`: Not a tier: plus, pro or max
             *     - `provider_unsupported`: The payment provider is not enabled on this deployment
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `subscription_active`: There is already an active or grace subscription; change it instead
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Bad Gateway. The error code is one of:
             *
             *     - `payment_provider_failed`: The payment provider did not create the invoice; try again or another provider
             */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokens: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
                /** @example virtuals */
                template?: "virtuals" | "dpnm";
                /** @example live */
                state?: "pending" | "live" | "graduating" | "sentient" | "failed";
                /** @example 31337 */
                chainId?: number;
                /**
                 * @description new: newest first (default); old: oldest first; name: by name A-Z. The board (launched tokens only, highest first): market_cap, volume_24h, price_change_24h, last_trade (the last trade, or the launch before any), graduating (virtuals `live` tokens by progress to graduation), trending (trades in the last hour × (1 + the hour’s share of the day’s volume)); docs/chain.md "Market data"
                 * @example new
                 */
                sort?: "new" | "old" | "name" | "market_cap" | "volume_24h" | "price_change_24h" | "last_trade" | "graduating" | "trending";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postTokens: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description One of virtuals, dpnm; the chain must have its factory */
                    template: string;
                    name: string;
                    /** @description 3 to 6 characters A-Z, 0-9; normalised to upper case; unique per chain */
                    ticker: string;
                    brief?: string | null;
                    /** @description virtuals: {graduationThreshold, initialBuy?}; dpnm: {initialPrice, dailyLimitFloor, incomeLimitMultiplier, treeActivationCost}. Amounts are decimal strings. */
                    params: {
                        [key: string]: unknown;
                    };
                    /** @description An instance already launched: metadata only, no pendingLaunchTx */
                    instance?: string | null;
                    /** @description A configured chain (GET /chains) */
                    chainId: number;
                    imageUrl?: string | null;
                    imageMediaId?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedToken"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `chain_unsupported`: The chain is not configured on this deployment (GET /chains lists them)
             *     - `template_unknown`: Not a known template, or the template has no launch factory on that chain
             *     - `invalid_ticker`: The ticker is not 3 to 6 characters of A-Z and 0-9
             *     - `params_invalid`: The launch parameters do not fit the template; each problem is named
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `ticker_taken`: Another token on this chain has this ticker
             *     - `instance_taken`: This contract address is already linked to a token on this chain
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensStream: {
        parameters: {
            query?: {
                /**
                 * @description Same as the Last-Event-ID header, for clients that cannot set headers
                 * @example last event id
                 */
                lastEventId?: string;
            };
            header?: {
                /**
                 * @description The last event id the client has; only newer events are sent
                 * @example last-event-id
                 */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlug: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenDetail"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    patchTokensBySlug: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first response (status < 500) is stored for 24 h and replayed for the same key, with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`, and while the first request runs, 409 `idempotency_in_progress` (docs/guides/idempotency.md)
                 * @example 3c1e9f2a-7b4d-4e8a-9f61-2d5c8b7a4e10
                 */
                "Idempotency-Key"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only while the token is pending: rebuilds pendingLaunchTx */
                    name?: string;
                    /** @description Only while pending: 3 to 6 characters A-Z, 0-9; unique per chain */
                    ticker?: string;
                    /** @description Only while pending; null removes it */
                    imageUrl?: string | null;
                    /** @description Only while pending, instead of imageUrl */
                    imageMediaId?: string | null;
                    /** @description At any time; null removes it */
                    description?: string | null;
                    /** @description At any time; only the links sent change */
                    links?: {
                        /** @description An https URL; null removes it */
                        website?: string | null;
                        /** @description An https URL on x.com, www.x.com, twitter.com, www.twitter.com; null removes it */
                        twitter?: string | null;
                        /** @description An https URL on t.me, telegram.me; null removes it */
                        telegram?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenDetail"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_ticker`: The ticker is not 3 to 6 characters of A-Z and 0-9
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_json`: The body is not valid JSON (or is empty with a JSON Content-Type)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Forbidden. The error code is one of:
             *
             *     - `not_owner`: The resource exists but belongs to another user
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Conflict. The error code is one of:
             *
             *     - `token_launched`: The token is launched: its name, ticker and image are on chain (or frozen by it) and can no longer change; description and links still can
             *     - `ticker_taken`: Another token on this chain has this ticker
             *     - `idempotency_in_progress`: A request with this Idempotency-Key is still running; retry after `Retry-After` to get its response
             */
            409: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unprocessable Content. The error code is one of:
             *
             *     - `idempotency_key_reused`: This Idempotency-Key was already used with a different body or query
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugCandles: {
        parameters: {
            query: {
                /**
                 * @description Bar width; buckets start at UTC boundaries of block time, weeks on Monday
                 * @example 15s
                 */
                resolution: "15s" | "1m" | "5m" | "15m" | "1h" | "4h" | "1d" | "1w";
                /**
                 * @description The first bar’s earliest start (inclusive)
                 * @example 3
                 */
                from?: number;
                /**
                 * @description Bars start before this Unix second (exclusive); now by default
                 * @example 3
                 */
                to?: number;
                /**
                 * @description That many bars ending at `to`, instead of those from `from`
                 * @example 3
                 */
                countback?: number;
                /**
                 * @description none: only buckets with trades; previous: empty buckets carry the last close
                 * @example none
                 */
                fill?: "none" | "previous";
            };
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Candles"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugHolders: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HolderPage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugMetadataJson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenMetadata"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugOnchain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenOnchain"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugStream: {
        parameters: {
            query?: {
                /**
                 * @description Bars to send after each trade, comma-separated (1m by default)
                 * @example 1m
                 */
                resolutions?: string;
                /**
                 * @description Same as the Last-Event-ID header, for clients that cannot set headers
                 * @example last event id
                 */
                lastEventId?: string;
            };
            header?: {
                /**
                 * @description The last event id the client has; only newer events are sent
                 * @example last-event-id
                 */
                "last-event-id"?: string;
            };
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTokensBySlugTrades: {
        parameters: {
            query?: {
                /**
                 * @description The `nextCursor` of the previous page
                 * @example eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY
                 */
                cursor?: string;
                /**
                 * @description Page size, 20 by default; values above 100 are clamped
                 * @example 20
                 */
                limit?: number;
            };
            header?: never;
            path: {
                /**
                 * @description The resource’s slug
                 * @example atlas
                 */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TradePage"];
                };
            };
            /**
             * @description Bad Request. The error code is one of:
             *
             *     - `invalid_request`: A parameter, header or body field is missing or invalid; the message names it
             *     - `invalid_cursor`: The cursor was not issued by this listing with these filters, or was altered
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Unauthorized. The error code is one of:
             *
             *     - `unauthenticated`: No valid credential: no session cookie, Bearer token or API key, or one that expired
             *     - `invalid_api_key`: The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired
             *
             *     Anonymous calls are allowed: this comes only with a credential that is not valid.
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Not Found. The error code is one of:
             *
             *     - `token_not_found`: No token has this slug
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Too Many Requests. The error code is one of:
             *
             *     - `rate_limited`: Too many requests in this minute for the credential’s bucket; retry after `Retry-After`
             */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Internal Server Error. The error code is one of:
             *
             *     - `internal_error`: An unexpected failure; safe to retry, and worth reporting with X-Request-Id
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description Service Unavailable. The error code is one of:
             *
             *     - `service_unavailable`: A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, after `Retry-After` when present
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other client error, with the same error body */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Any other server error, with the same error body */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
