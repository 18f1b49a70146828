export interface paths {
    "/v1/tool/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe a tool
         * @description The contract of one tool: its input and output JSON Schemas, examples, size limit and the credit cost of one call for this key. Free: costs no credits (it does take a rate-limit slot). Over MCP: the tool `describe_tool`.
         */
        get: operations["describeTool"];
        put?: never;
        /**
         * Run a tool
         * @description Runs the tool on the JSON body and charges the key its price; a call that fails is refunded. Each tool's own path below documents its exact body and outputs. With `Prefer: respond-async` a tool whose `jobs` is `optional` runs as a job, and a `required` one always does: 202 with the job, its credits held (402 before anything runs), then `GET /v1/jobs/{id}` (docs/jobs.md).
         */
        post: operations["callTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description This account's jobs, newest first, a page at a time; `status` keeps one status. Ended jobs are kept `TOOLRUN_JOB_TTL_S` (a day by default). Free: costs no credits (it does take a rate-limit slot).
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a job
         * @description The job's status and, once it ended, its `result` (the envelope a synchronous call answers) or `problem`. Any instance answers. Another account's job, or one purged, is 404 `job_not_found`. Free: costs no credits (it does take a rate-limit slot).
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description A queued or running job ends `canceled` at once: its tool's signal fires and its credits are released (nothing charged). A job that ended, or whose charge is being made, is answered as it is. Free: costs no credits (it does take a rate-limit slot).
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tools
         * @description Every tool with the exact credit cost of one call for this key. Free: costs no credits (it does take a rate-limit slot).
         */
        get: operations["listTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search tools
         * @description Finds tools by words in their slug, name, description and keywords, best match first, with the exact credit cost of one call for this key. Free: costs no credits (it does take a rate-limit slot). Over MCP: the tool `search_tools`.
         */
        get: operations["searchTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credits left
         * @description This key's plan, monthly allowance, credits used and left in the current month (UTC), whether metering is on, and the key's scope (its tools and access). Free: costs no credits (it does take a rate-limit slot). Over MCP: the tool `get_credits`.
         */
        get: operations["getCredits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage this month
         * @description What this key spent its credits on this month: totals, totals per tool and the most recent calls, newest first, one page at a time. Free: costs no credits (it does take a rate-limit slot). Over MCP: the tool `get_usage`.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List captures
         * @description This account's live captures, newest first, with how many requests each holds (not their URLs: only their tokens' hashes are kept). Free: costs no credits (it does take a rate-limit slot).
         */
        get: operations["listCaptures"];
        put?: never;
        /**
         * Create a capture
         * @description A new address that catches real webhook deliveries for this account for `TOOLRUN_CAPTURE_TTL_S` (a day by default): paste `url` into the provider's dashboard, then read what arrives with `GET /v1/captures/{id}/requests`. `url` is shown only in this answer. An account holds at most 5 live captures (409 `capture_limit_reached` past them). Free: costs no credits (it does take a rate-limit slot).
         */
        post: operations["createCapture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/captures/{id}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests a capture caught
         * @description The requests the capture caught, newest first, a page at a time (it keeps the last 100). Each `raw` is the request as received, the text the webhook inspector takes as `payload`: inspecting it is an ordinary inspector call. Another account's capture, or an expired one, is 404 `capture_not_found`. Free: costs no credits (it does take a rate-limit slot).
         */
        get: operations["listCapturedRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/captures/{id}": {
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
         * Delete a capture
         * @description Ends the capture at once: its address answers 404 and what it caught is gone. Another account's capture, or an expired one, is 404 `capture_not_found`. Free: costs no credits (it does take a rate-limit slot).
         */
        delete: operations["deleteCapture"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy a pack of credits
         * @description Creates a Stripe Checkout Session for one of the operator's packs, paid for this key's account, and answers its `url`: send the buyer there. Once Stripe reports the payment (the webhook), the pack's credits are a paid grant on the account. Success and cancel come back to the console's account page. A read-only key may buy. Free: costs no credits (it does take a rate-limit slot).
         */
        post: operations["createCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/stripe/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe's events (for Stripe)
         * @description Where Stripe delivers its events; no key, the `Stripe-Signature` header instead (a missing, wrong or stale one: 400 `payment_signature_invalid`, nothing granted). `checkout.session.completed` with `payment_status: paid` and `checkout.session.async_payment_succeeded` grant the session's pack to its account as a paid grant whose reference is the session id, once however often they are delivered; every other event is answered 200 and ignored, and so is an event for an account this service does not have (logged).
         */
        post: operations["stripeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List keys
         * @description Every customer key, oldest first, a page at a time (never their secrets). Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListKeys"];
        put?: never;
        /**
         * Create a key
         * @description Creates a customer key and answers it once, in `key`; only its hash is stored. With `account_id` it is a credential of that account (its plan, allowance, grants, balance and per-minute window); without, it gets a one-key account of its own from `plan`, as a key always had. Audited as `keys.create`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a key
         * @description One customer key: plan, allowance this month with its grants, status, expiry, metadata. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminGetKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a key
         * @description Changes the members sent (plan, name, own monthly allowance, metadata, expiry); the others stay. Takes effect on the key's next request. The plan and the allowance are the key's account's, so they change for every key of the account (audited as `accounts.update` on the account); the rest is the key's own (audited as `keys.update`). A revoked key cannot be changed. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        patch: operations["adminUpdateKey"];
        trace?: never;
    };
    "/admin/v1/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a key
         * @description Gives the key a new secret, answered once in `key`. Same account, same balance. Without a body (or without `grace_seconds`) the old secret stops working at once; with `grace_seconds` it keeps working beside the new one until `previous_secret_expires_at`, and a secret an earlier rotation left working stops at once (one old secret at most). Either way the key's OAuth authorizations end at once. Revoking the key ends the old secret too, and the key's expiry applies to both. Audited as `keys.rotate` (with the grace). Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminRotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a key
         * @description Revokes the key at once: its next request answers 401. Audited as `keys.revoke`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminRevokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys/{id}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant credits
         * @description Gives the key's account a promotional grant of credits that lapses when the current calendar month (UTC) ends, shared by every key of the account (as `POST /admin/v1/accounts/{id}/grants` with that `expires_at`). `GET /v1/me/credits` shows it in `grants` and `credits_remaining`; `monthly_allowance` and `credits_used` are unchanged. Audited as `credits.grant` on the account; sends the `credits.granted` webhook event. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminGrantCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/keys/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A key's usage
         * @description What the key itself reads at `GET /v1/me/credits` and `GET /v1/me/usage` this month, from the same ledger: its account's figures. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminKeyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tool switches
         * @description Every tool with its operator switches as stored now. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListToolSwitches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/tools/{slug}": {
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
         * Set a tool's switches
         * @description Stores the switches sent (`enabled`, `api`); every instance applies them within seconds. Audited as `tools.set`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        patch: operations["adminSetToolSwitch"];
        trace?: never;
    };
    "/admin/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description The people who signed in to the console (with `TOOLRUN_SIGNIN_*` set), oldest first, a page at a time; `account_id` keeps one account's. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a member
         * @description One member: its provider identity, verified email, account, status and last sighting. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminGetMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/members/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a member
         * @description The member's console sessions end at once and it cannot sign in again until enabled. Its account and keys are untouched. Audited as `members.disable`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminDisableMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/members/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a member
         * @description The member may sign in again (its ended sessions stay ended). Audited as `members.enable`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminEnableMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite a member
         * @description Lets the email sign in to the console and join the account, when the provider says it verified it (matched without regard to case); with `TOOLRUN_SIGNUP=invite` only invited emails may sign in. A later invite of the same email names the other account instead. Audited as `members.invite`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminInviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit log
         * @description Every admin API and CLI action, newest first: who (an admin key, or `cli` with the operating-system user), what, on what, when, and the admin request's id. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Every webhook endpoint, oldest first (never their secrets). Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListWebhooks"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Registers a URL to receive the events named in `events`, signed the Standard Webhooks way, and answers its signing secret once, in `secret` (`whsec_...`). Audited as `webhooks.create`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminCreateWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description One webhook endpoint: its URL, events, whether it is enabled (and why not). Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminGetWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Removes the endpoint with its deliveries and their log; what was pending is never sent. Audited as `webhooks.delete`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        delete: operations["adminDeleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the members sent (`url`, `events`, `description`, `enabled`); the others stay. Events already written keep going to the endpoints they were written for. Audited as `webhooks.update`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        patch: operations["adminUpdateWebhook"];
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint's deliveries
         * @description Each event written for the endpoint, newest first, with its state (`pending`, `delivered`, `failed` once given up), when it is tried next, and every attempt: when, the status answered (or why none came), how long it took. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a webhook delivery
         * @description Makes the delivery due now, whatever its state: a pending one is sent at once instead of at its next time, a delivered one is sent again, and one given up gets one more attempt (given up again if it fails). The same `webhook-id`. Sent within a second or so while the endpoint is enabled. Audited as `webhooks.retry`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminRetryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.test` event for this endpoint alone (whatever events it subscribed to), delivered like any other: watch it in the deliveries. `deliveries` is 0 when the endpoint is disabled. Audited as `webhooks.test`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Every account, oldest first, a page at a time, with this month's balance and its count of keys. A key made without an `account_id` has an account of its own, listed here too. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListAccounts"];
        put?: never;
        /**
         * Create an account
         * @description Creates an account (`acc_...`) with a plan, an optional own monthly allowance and metadata; keys made with its `account_id` then share its balance, its per-minute window and its idempotency keys. Audited as `accounts.create`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminCreateAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an account
         * @description One account: plan, allowance this month with its grants, credits used and left, and its count of keys. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminGetAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an account
         * @description Changes the members sent (`name`, `plan`, `monthly_allowance`, `metadata`); every key of the account, on every instance, is priced and limited by the new terms within the key cache's bound. Audited as `accounts.update`. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        patch: operations["adminUpdateAccount"];
        trace?: never;
    };
    "/admin/v1/accounts/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's keys
         * @description The account's keys, oldest first, a page at a time (never their secrets), revoked ones included. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListAccountKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's usage
         * @description What each of the account's keys reads at `GET /v1/me/credits` and `GET /v1/me/usage` this month: the account's balance, and its calls by whichever key made them (`key_id`). Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminAccountUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's grants
         * @description The account's live grants with credits left, in the order calls spend them; expired and spent ones are not shown. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListAccountGrants"];
        put?: never;
        /**
         * Grant an account credits
         * @description Gives the account a grant of credits, shared by its keys: spent after the month's allowance, grants by earliest `expires_at` first (never-expiring last), then oldest; what is left of it is gone at `expires_at`. `category` is `promotional` unless said `paid`. The same `reference` again on the account answers 200 with the grant it made, granting nothing. Audited as `credits.grant` on the account; sends the `credits.granted` webhook event. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        post: operations["adminGrantAccountCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List calls
         * @description Recorded calls, newest first, a page at a time, with who made each: the key, the credential (`key` or the `authz_...` OAuth authorization) and its client, the transport (`http`, `mcp`) and the MCP client's clientInfo. Filters: `account`, `key`, `tool`, `outcome`, and `since`/`until` on the call's time. No request body is stored. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminListCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/usage/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export usage events
         * @description The settled calls (charged or refunded; a reservation still pending is not given until it settles) as NDJSON, one CloudEvents 1.0 event a line: `id` the call's id, `type` `toolrun.call`, `subject` the account, `time` the settlement. In settlement order, the same ids in the same order on every read; a call settling later always comes after what was already given. Each line is one JSON object (see docs/operations.md for its members and their mapping to OpenMeter, Stripe meter events, Lago and Orb). The `toolrun-next-cursor` header holds where the next read starts (given again as `cursor`, even from an empty page); `toolrun-more: true` when more events are ready now. `since`/`until` filter on the settlement time. Needs an admin key; takes a slot of the admin key's own per-minute window (`TOOLRUN_ADMIN_RPM`), never a customer key's.
         */
        get: operations["adminExportUsage"];
        put?: never;
        post?: never;
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
         * Liveness
         * @description The process is up. Free, keyless, takes no slot.
         */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
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
         * Readiness
         * @description Whether the database (read and written), its schema and the rate-limit store are usable; 503 names the failing check in `checks`. `writes` is `locked` while another process holds the database's write lock: still ready, since writes wait for it. Free, keyless, takes no slot.
         */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Generated from the declarations that serve the API. Keyless, takes no slot.
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API reference, rendered from /openapi.json */
        get: operations["reference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every error code */
        get: operations["errorCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What one error code means and what to do */
        get: operations["errorCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliver a webhook to a capture (GET)
         * @description A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.
         */
        get: operations["captureHookGet"];
        /**
         * Deliver a webhook to a capture (PUT)
         * @description A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.
         */
        put: operations["captureHookPut"];
        /**
         * Deliver a webhook to a capture (POST)
         * @description A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.
         */
        post: operations["captureHookPost"];
        /**
         * Deliver a webhook to a capture (DELETE)
         * @description A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.
         */
        delete: operations["captureHookDelete"];
        options?: never;
        head?: never;
        /**
         * Deliver a webhook to a capture (PATCH)
         * @description A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.
         */
        patch: operations["captureHookPatch"];
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP's server-to-client stream: not offered
         * @description MCP clients may GET the endpoint to open an SSE stream for server-initiated messages. This server is stateless and sends none, so it answers 405 `method_not_allowed` with `Allow: POST`, as the Streamable HTTP transport provides; no key is read and no slot is taken.
         */
        get: operations["mcpStream"];
        put?: never;
        /**
         * MCP (Streamable HTTP, stateless, JSON responses)
         * @description JSON-RPC 2.0 over MCP's Streamable HTTP transport: protocol 2026-07-28 through `server/discover`, and 2025-11-25, 2025-06-18 and 2025-03-26 through `initialize`. Every API tool is an MCP tool under its slug, plus the free `search_tools`, `describe_tool`, `get_credits` and `get_usage`. Each JSON-RPC message takes a rate-limit slot; a batch of N takes N.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tool/retaining-wall-pressure-calculator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retaining Wall Pressure Calculator
         * @description Lateral earth pressure on a retaining wall, Rankine or Coulomb: the active (Ka), at-rest (K0, Jaky) or passive (Kp) coefficient, the pressure at the base, the total thrust per unit length of wall with its horizontal and vertical components, the height at which it acts and the overturning moment about the base. Takes an optional backfill slope and uniform surcharge; Coulomb's wall friction and inclined back; soil cohesion with the tension crack; a water table; and a Mononobe-Okabe earthquake thrust. Metric (m, kN/m³, kPa) or imperial (ft, pcf, psf) units; returns a readable table, the unrounded figures and the pressure diagram.
         *
         *     Costs the key's plan price per call (`credits` in `GET /v1/tool/retaining-wall-pressure-calculator`); a call that fails is refunded. At most 16384 bytes of body.
         */
        post: operations["callTool.retaining-wall-pressure-calculator"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tool/webhook-payload-inspector": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Webhook Payload Inspector
         * @description Takes a raw webhook request (optional HTTP request line and headers plus a JSON or form-encoded body). Returns parsed headers, a pretty-printed and validated body, detected content type and size, the sending provider and event type, extracted timestamps and flagged signature headers; with a secret, checks the provider's signature.
         *
         *     Costs the key's plan price per call (`credits` in `GET /v1/tool/webhook-payload-inspector`); a call that fails is refunded. At most 1048576 bytes of body.
         */
        post: operations["callTool.webhook-payload-inspector"];
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
        Problem: {
            /**
             * Format: uri
             * @description `{docs_url}/errors/{code}`: a page explaining the code.
             */
            type: string;
            title: string;
            status: number;
            /**
             * @description Stable: branch on this.
             * @enum {string}
             */
            code: "validation_error" | "payment_signature_invalid" | "malformed_request" | "invalid_api_key" | "insufficient_credits" | "vendor_api_tier_limit_exceeded" | "tool_not_allowed" | "key_read_only" | "origin_not_allowed" | "csrf_token_invalid" | "tool_not_found" | "not_found" | "key_not_found" | "account_not_found" | "member_not_found" | "authorization_not_found" | "capture_not_found" | "capture_limit_reached" | "billing_disabled" | "webhook_not_found" | "webhook_delivery_not_found" | "key_revoked" | "method_not_allowed" | "request_timeout" | "idempotency_key_in_use" | "expectation_failed" | "payload_too_large" | "uri_too_long" | "unprocessable_input" | "idempotency_key_mismatch" | "job_not_found" | "rate_limited" | "too_many_jobs" | "too_many_large_calls" | "client_closed_request" | "processing_error" | "request_header_fields_too_large" | "internal_error" | "tool_disabled" | "api_unconfigured" | "payment_provider_unavailable" | "backend_unavailable" | "server_busy" | "shutting_down";
            detail?: string;
            request_id?: string;
            /** @description Each bad field and its message, or one message when the failure is not tied to a field. */
            fields?: {
                [key: string]: string;
            } | string;
            retry_after?: number;
            credits_used?: number;
            credits_remaining?: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    describeTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tool's slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Describe a tool */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        name: string;
                        description: string;
                        tool_version: string;
                        /** @description Exact cost of one call for the calling key. */
                        credits: number;
                        enabled: boolean;
                        api: boolean;
                        /** @description JSON Schema 2020-12 of the request body. */
                        input_schema: Record<string, never>;
                        /** @description JSON Schema 2020-12 of `outputs`. */
                        output_schema: Record<string, never>;
                        examples: {
                            title: string;
                            input: Record<string, never>;
                        }[];
                        limits: {
                            max_body_bytes: number;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_found`](/docs/errors/tool_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    callTool: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a retry with the same key, tool and body gets the first answer (200 or 422) again, charged once; after a 500 it runs again. 1 to 255 visible ASCII characters, a UUID for example; kept for the account for TOOLRUN_IDEMPOTENCY_TTL_S seconds (a day by default). */
                "Idempotency-Key"?: string;
                /** @description `respond-async`: run the call as a job when its tool allows (answered 202). */
                Prefer?: string;
            };
            path: {
                /** @description The tool's slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The tool ran; the envelope carries its outputs and the credits charged. */
            200: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tool: string;
                        tool_version: string;
                        outputs: Record<string, never>;
                        credits_used: number;
                        credits_remaining: number | null;
                        request_id?: string;
                    };
                };
            };
            /** @description The call runs as a job, its credits held: read it at `Location` (`GET /v1/jobs/{id}`) after `Retry-After` seconds. */
            202: {
                headers: {
                    /** @description The job: `/v1/jobs/{id}`. */
                    Location?: string;
                    /** @description Seconds to wait before reading it. */
                    "Retry-After"?: number;
                    /** @description `respond-async`, when the request asked for it. */
                    "Preference-Applied"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The job's id (`job_…`). */
                        id: string;
                        /** @description The tool's slug. */
                        tool: string;
                        /**
                         * @description `queued` and `running` are live; the others are ends.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "succeeded" | "failed" | "canceled";
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        /** @description Credits charged: the call's price once it succeeded, else 0. */
                        credits_used: number;
                        /** @description Once `succeeded`: the 200 envelope a synchronous call answers. */
                        result?: {
                            tool: string;
                            tool_version: string;
                            outputs: Record<string, never>;
                            credits_used: number;
                            credits_remaining: number | null;
                            request_id?: string;
                        };
                        /** @description Once `failed`: the problem document a synchronous call answers. */
                        problem?: {
                            /**
                             * Format: uri
                             * @description `{docs_url}/errors/{code}`: a page explaining the code.
                             */
                            type: string;
                            title: string;
                            status: number;
                            /**
                             * @description Stable: branch on this.
                             * @enum {string}
                             */
                            code: "validation_error" | "payment_signature_invalid" | "malformed_request" | "invalid_api_key" | "insufficient_credits" | "vendor_api_tier_limit_exceeded" | "tool_not_allowed" | "key_read_only" | "origin_not_allowed" | "csrf_token_invalid" | "tool_not_found" | "not_found" | "key_not_found" | "account_not_found" | "member_not_found" | "authorization_not_found" | "capture_not_found" | "capture_limit_reached" | "billing_disabled" | "webhook_not_found" | "webhook_delivery_not_found" | "key_revoked" | "method_not_allowed" | "request_timeout" | "idempotency_key_in_use" | "expectation_failed" | "payload_too_large" | "uri_too_long" | "unprocessable_input" | "idempotency_key_mismatch" | "job_not_found" | "rate_limited" | "too_many_jobs" | "too_many_large_calls" | "client_closed_request" | "processing_error" | "request_header_fields_too_large" | "internal_error" | "tool_disabled" | "api_unconfigured" | "payment_provider_unavailable" | "backend_unavailable" | "server_busy" | "shutting_down";
                            detail?: string;
                            request_id?: string;
                            /** @description Each bad field and its message, or one message when the failure is not tied to a field. */
                            fields?: {
                                [key: string]: string;
                            } | string;
                            retry_after?: number;
                            credits_used?: number;
                            credits_remaining?: number;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`insufficient_credits`](/docs/errors/insufficient_credits), [`vendor_api_tier_limit_exceeded`](/docs/errors/vendor_api_tier_limit_exceeded). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_allowed`](/docs/errors/tool_not_allowed), [`key_read_only`](/docs/errors/key_read_only). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_found`](/docs/errors/tool_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`idempotency_key_in_use`](/docs/errors/idempotency_key_in_use). */
            409: {
                headers: {
                    /** @description Always 1: retry in a second. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`unprocessable_input`](/docs/errors/unprocessable_input), [`idempotency_key_mismatch`](/docs/errors/idempotency_key_mismatch). */
            422: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`too_many_large_calls`](/docs/errors/too_many_large_calls), [`too_many_jobs`](/docs/errors/too_many_jobs), [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`); until the key's large calls likely leave room (`too_many_large_calls`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`client_closed_request`](/docs/errors/client_closed_request). */
            499: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`processing_error`](/docs/errors/processing_error), [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_disabled`](/docs/errors/tool_disabled), [`server_busy`](/docs/errors/server_busy), [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    /** @description Seconds to wait: before the queue of large calls likely has room (`server_busy`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Only the jobs in this status. */
                status?: "queued" | "running" | "succeeded" | "failed" | "canceled";
                /** @description Most jobs per page. */
                limit?: number;
                /** @description next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        jobs: {
                            /** @description The job's id (`job_…`). */
                            id: string;
                            /** @description The tool's slug. */
                            tool: string;
                            /**
                             * @description `queued` and `running` are live; the others are ends.
                             * @enum {string}
                             */
                            status: "queued" | "running" | "succeeded" | "failed" | "canceled";
                            /** Format: date-time */
                            created_at: string;
                            started_at: string | null;
                            finished_at: string | null;
                            /** @description Credits charged: the call's price once it succeeded, else 0. */
                            credits_used: number;
                            /** @description Once `succeeded`: the 200 envelope a synchronous call answers. */
                            result?: {
                                tool: string;
                                tool_version: string;
                                outputs: Record<string, never>;
                                credits_used: number;
                                credits_remaining: number | null;
                                request_id?: string;
                            };
                            /** @description Once `failed`: the problem document a synchronous call answers. */
                            problem?: {
                                /**
                                 * Format: uri
                                 * @description `{docs_url}/errors/{code}`: a page explaining the code.
                                 */
                                type: string;
                                title: string;
                                status: number;
                                /**
                                 * @description Stable: branch on this.
                                 * @enum {string}
                                 */
                                code: "validation_error" | "payment_signature_invalid" | "malformed_request" | "invalid_api_key" | "insufficient_credits" | "vendor_api_tier_limit_exceeded" | "tool_not_allowed" | "key_read_only" | "origin_not_allowed" | "csrf_token_invalid" | "tool_not_found" | "not_found" | "key_not_found" | "account_not_found" | "member_not_found" | "authorization_not_found" | "capture_not_found" | "capture_limit_reached" | "billing_disabled" | "webhook_not_found" | "webhook_delivery_not_found" | "key_revoked" | "method_not_allowed" | "request_timeout" | "idempotency_key_in_use" | "expectation_failed" | "payload_too_large" | "uri_too_long" | "unprocessable_input" | "idempotency_key_mismatch" | "job_not_found" | "rate_limited" | "too_many_jobs" | "too_many_large_calls" | "client_closed_request" | "processing_error" | "request_header_fields_too_large" | "internal_error" | "tool_disabled" | "api_unconfigured" | "payment_provider_unavailable" | "backend_unavailable" | "server_busy" | "shutting_down";
                                detail?: string;
                                request_id?: string;
                                /** @description Each bad field and its message, or one message when the failure is not tied to a field. */
                                fields?: {
                                    [key: string]: string;
                                } | string;
                                retry_after?: number;
                                credits_used?: number;
                                credits_remaining?: number;
                            };
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id (`job_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The job's id (`job_…`). */
                        id: string;
                        /** @description The tool's slug. */
                        tool: string;
                        /**
                         * @description `queued` and `running` are live; the others are ends.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "succeeded" | "failed" | "canceled";
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        /** @description Credits charged: the call's price once it succeeded, else 0. */
                        credits_used: number;
                        /** @description Once `succeeded`: the 200 envelope a synchronous call answers. */
                        result?: {
                            tool: string;
                            tool_version: string;
                            outputs: Record<string, never>;
                            credits_used: number;
                            credits_remaining: number | null;
                            request_id?: string;
                        };
                        /** @description Once `failed`: the problem document a synchronous call answers. */
                        problem?: {
                            /**
                             * Format: uri
                             * @description `{docs_url}/errors/{code}`: a page explaining the code.
                             */
                            type: string;
                            title: string;
                            status: number;
                            /**
                             * @description Stable: branch on this.
                             * @enum {string}
                             */
                            code: "validation_error" | "payment_signature_invalid" | "malformed_request" | "invalid_api_key" | "insufficient_credits" | "vendor_api_tier_limit_exceeded" | "tool_not_allowed" | "key_read_only" | "origin_not_allowed" | "csrf_token_invalid" | "tool_not_found" | "not_found" | "key_not_found" | "account_not_found" | "member_not_found" | "authorization_not_found" | "capture_not_found" | "capture_limit_reached" | "billing_disabled" | "webhook_not_found" | "webhook_delivery_not_found" | "key_revoked" | "method_not_allowed" | "request_timeout" | "idempotency_key_in_use" | "expectation_failed" | "payload_too_large" | "uri_too_long" | "unprocessable_input" | "idempotency_key_mismatch" | "job_not_found" | "rate_limited" | "too_many_jobs" | "too_many_large_calls" | "client_closed_request" | "processing_error" | "request_header_fields_too_large" | "internal_error" | "tool_disabled" | "api_unconfigured" | "payment_provider_unavailable" | "backend_unavailable" | "server_busy" | "shutting_down";
                            detail?: string;
                            request_id?: string;
                            /** @description Each bad field and its message, or one message when the failure is not tied to a field. */
                            fields?: {
                                [key: string]: string;
                            } | string;
                            retry_after?: number;
                            credits_used?: number;
                            credits_remaining?: number;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`job_not_found`](/docs/errors/job_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id (`job_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job after */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The job's id (`job_…`). */
                        id: string;
                        /** @description The tool's slug. */
                        tool: string;
                        /**
                         * @description `queued` and `running` are live; the others are ends.
                         * @enum {string}
                         */
                        status: "queued" | "running" | "succeeded" | "failed" | "canceled";
                        /** Format: date-time */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        /** @description Credits charged: the call's price once it succeeded, else 0. */
                        credits_used: number;
                        /** @description Once `succeeded`: the 200 envelope a synchronous call answers. */
                        result?: {
                            tool: string;
                            tool_version: string;
                            outputs: Record<string, never>;
                            credits_used: number;
                            credits_remaining: number | null;
                            request_id?: string;
                        };
                        /** @description Once `failed`: the problem document a synchronous call answers. */
                        problem?: {
                            /**
                             * Format: uri
                             * @description `{docs_url}/errors/{code}`: a page explaining the code.
                             */
                            type: string;
                            title: string;
                            status: number;
                            /**
                             * @description Stable: branch on this.
                             * @enum {string}
                             */
                            code: "validation_error" | "payment_signature_invalid" | "malformed_request" | "invalid_api_key" | "insufficient_credits" | "vendor_api_tier_limit_exceeded" | "tool_not_allowed" | "key_read_only" | "origin_not_allowed" | "csrf_token_invalid" | "tool_not_found" | "not_found" | "key_not_found" | "account_not_found" | "member_not_found" | "authorization_not_found" | "capture_not_found" | "capture_limit_reached" | "billing_disabled" | "webhook_not_found" | "webhook_delivery_not_found" | "key_revoked" | "method_not_allowed" | "request_timeout" | "idempotency_key_in_use" | "expectation_failed" | "payload_too_large" | "uri_too_long" | "unprocessable_input" | "idempotency_key_mismatch" | "job_not_found" | "rate_limited" | "too_many_jobs" | "too_many_large_calls" | "client_closed_request" | "processing_error" | "request_header_fields_too_large" | "internal_error" | "tool_disabled" | "api_unconfigured" | "payment_provider_unavailable" | "backend_unavailable" | "server_busy" | "shutting_down";
                            detail?: string;
                            request_id?: string;
                            /** @description Each bad field and its message, or one message when the failure is not tied to a field. */
                            fields?: {
                                [key: string]: string;
                            } | string;
                            retry_after?: number;
                            credits_used?: number;
                            credits_remaining?: number;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`job_not_found`](/docs/errors/job_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List tools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tools: {
                            slug: string;
                            name: string;
                            description: string;
                            tool_version: string;
                            /** @description Exact cost of one call for the calling key. */
                            credits: number;
                            enabled: boolean;
                            api: boolean;
                        }[];
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    searchTools: {
        parameters: {
            query: {
                /** @description Search words. */
                q: string;
                /** @description Most tools to return. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Search tools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        query: string;
                        tools: {
                            slug: string;
                            name: string;
                            description: string;
                            tool_version: string;
                            /** @description Exact cost of one call for the calling key. */
                            credits: number;
                            enabled: boolean;
                            api: boolean;
                        }[];
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCredits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Credits left */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The account the key spends for: every figure here is the account's, shared by its keys. */
                        account_id: string;
                        /** @description The account's name, as its operator set it. */
                        account_name: string;
                        plan: string;
                        /** @description This month's allowance alone (grants come on top); null when metering is off. It renews on the 1st (UTC). */
                        monthly_allowance: number | null;
                        /** @description Credits of this month's allowance used. */
                        credits_used: number;
                        /** @description What is left of this month's allowance; null when metering is off. */
                        monthly_remaining: number | null;
                        /** @description What the account can spend now: `monthly_remaining` plus what its live grants have left. A call costing more answers 402. Null when metering is off. */
                        credits_remaining: number | null;
                        /** @description Its live grants with credits left, in the order calls spend them once the allowance is used: earliest `expires_at` first, never-expiring last, then oldest. */
                        grants: {
                            /** @description `grt_...` */
                            id: string;
                            remaining: number;
                            /** @description When what is left is gone; null: never. */
                            expires_at: string | null;
                            /** @enum {string} */
                            category: "paid" | "promotional";
                        }[];
                        /** Format: date-time */
                        period_start: string;
                        /** Format: date-time */
                        period_end: string;
                        metering: boolean;
                        /** @description The key asking and its scope (over OAuth: the key as the authorization acts, narrowed to the tools approved at consent). */
                        key: {
                            /** @description The key's id (`key_...`). */
                            id: string;
                            /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                            tools: string[] | null;
                            /**
                             * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                             * @enum {string}
                             */
                            access: "full" | "read";
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Most recent calls per page. */
                limit?: number;
                /** @description next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage this month */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        period_start: string;
                        /** Format: date-time */
                        period_end: string;
                        credits_used: number;
                        calls: number;
                        by_tool: {
                            tool: string;
                            calls: number;
                            credits: number;
                        }[];
                        recent: {
                            request_id: string;
                            /** @description The key of the account that made the call. */
                            key_id: string;
                            tool: string;
                            status: string;
                            http_status?: number | null;
                            credits: number;
                            at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCaptures: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live captures */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Live captures, newest first. */
                        captures: {
                            /** @description The capture's id. */
                            id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** @description Requests it holds now. */
                            request_count: number;
                        }[];
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCapture: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The capture */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The capture's id. */
                        id: string;
                        /**
                         * Format: uri
                         * @description Where the provider sends its webhooks: `{TOOLRUN_PUBLIC_URL}/hooks/{token}`. Shown only in this answer (only the token's hash is stored); anyone who has it can send requests to the capture.
                         */
                        url: string;
                        /**
                         * Format: date-time
                         * @description When it stops catching requests (`TOOLRUN_CAPTURE_TTL_S` after creation).
                         */
                        expires_at: string;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`capture_limit_reached`](/docs/errors/capture_limit_reached). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCapturedRequests: {
        parameters: {
            query?: {
                /** @description Most requests per page. */
                limit?: number;
                /** @description next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The capture's id (`cap_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Caught requests */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The capture's id. */
                        capture_id: string;
                        /** @description Newest first. */
                        requests: {
                            id: string;
                            /** Format: date-time */
                            received_at: string;
                            method: string;
                            /** @description The body's length in bytes, as received. */
                            size: number;
                            /** @description The request as received: request line, headers in order, a blank line, the body (as UTF-8). Send it as the webhook inspector's `payload`. */
                            raw: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`capture_not_found`](/docs/errors/capture_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCapture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's id (`cap_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The capture's id. */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`capture_not_found`](/docs/errors/capture_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The id of one of the operator's packs. */
                    pack: string;
                };
            };
        };
        responses: {
            /** @description The checkout page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uri
                         * @description The provider's checkout page: send the buyer there.
                         */
                        url: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`billing_disabled`](/docs/errors/billing_disabled). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payment_provider_unavailable`](/docs/errors/payment_provider_unavailable). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    stripeWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Stripe's signature of the body. */
                "stripe-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                        /**
                         * @description `granted`: the session's credits were granted now; `already_granted`: an earlier delivery granted them; `ignored`: the event grants nothing (another type, a session not paid yet, another application's checkout); `unknown_account`: the session names no account of this service (logged, nothing granted).
                         * @enum {string}
                         */
                        outcome: "granted" | "already_granted" | "ignored" | "unknown_account";
                    };
                };
            };
            /** @description A problem: [`payment_signature_invalid`](/docs/errors/payment_signature_invalid), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`billing_disabled`](/docs/errors/billing_disabled). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: {
                /** @description Most keys to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        keys: {
                            /** @description `key_...`: how the admin API and the CLI name the key. */
                            id: string;
                            /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                            account_id: string;
                            /** @description The full key: only in the answer that created or rotated it. */
                            key?: string;
                            /** @description The key's non-secret beginning, to recognise it by. */
                            prefix: string;
                            name: string;
                            plan: string;
                            /** @enum {string} */
                            status: "active" | "expired" | "revoked";
                            /** @description The key's own monthly allowance; null when it uses its plan's. */
                            own_monthly_allowance: number | null;
                            /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                            monthly_allowance: number;
                            metadata: {
                                [key: string]: string;
                            };
                            expires_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            revoked_at: string | null;
                            /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                            previous_prefix: string | null;
                            /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                            previous_secret_expires_at: string | null;
                            /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                            tools: string[] | null;
                            /**
                             * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                             * @enum {string}
                             */
                            access: "full" | "read";
                        }[];
                        /** @description Pass as `cursor` for the next page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The account the key is a credential of: it spends that account's balance and shares its window. Absent: the key gets a one-key account of its own, from `plan` (then required) and `monthly_allowance`. With it, `plan` and `monthly_allowance` are the account's and must be absent. */
                    account_id?: string;
                    /** @description A configured plan: free, builder, or one from TOOLRUN_CONFIG. */
                    plan?: string;
                    /** @description A name to recognise the key by. */
                    name?: string;
                    /** @description The key's own monthly allowance instead of its plan's; null for the plan's. */
                    monthly_allowance?: number | null;
                    /** @description The operator's own labels, replaced as a whole: at most 20 names of 1 to 40 letters, digits, `_`, `.` or `-`, each with a string of at most 500 characters. Never put secrets here. */
                    metadata?: {
                        [key: string]: string;
                    };
                    /** @description RFC 3339 date-time from which the key answers 401 `invalid_api_key` (expired); null for never. A time in the past expires the key at once. From 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
                    expires_at?: string | null;
                    /** @description The slugs of the only tools the key may see and call (every other answers 404 `tool_not_found` to it, as an unknown slug); null or absent for every tool. Each must be a tool this service has. */
                    tools?: string[] | null;
                    /**
                     * @description `full` (the default): the key may call its tools. `read`: only the free reads (catalog, search, schemas, its credits and usage); a tool call answers 403 `key_read_only`.
                     * @enum {string}
                     */
                    access?: "full" | "read";
                };
            };
        };
        responses: {
            /** @description Create a key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGetKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Read a key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key?: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminUpdateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A configured plan: free, builder, or one from TOOLRUN_CONFIG. */
                    plan?: string;
                    /** @description A name to recognise the key by. */
                    name?: string;
                    /** @description The key's own monthly allowance instead of its plan's; null for the plan's. */
                    monthly_allowance?: number | null;
                    /** @description The operator's own labels, replaced as a whole: at most 20 names of 1 to 40 letters, digits, `_`, `.` or `-`, each with a string of at most 500 characters. Never put secrets here. */
                    metadata?: {
                        [key: string]: string;
                    };
                    /** @description RFC 3339 date-time from which the key answers 401 `invalid_api_key` (expired); null for never. A time in the past expires the key at once. From 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
                    expires_at?: string | null;
                    /** @description The slugs of the only tools the key may see and call (every other answers 404 `tool_not_found` to it, as an unknown slug); null or absent for every tool. Each must be a tool this service has. */
                    tools?: string[] | null;
                    /**
                     * @description `full` (the default): the key may call its tools. `read`: only the free reads (catalog, search, schemas, its credits and usage); a tool call answers 403 `key_read_only`.
                     * @enum {string}
                     */
                    access?: "full" | "read";
                };
            };
        };
        responses: {
            /** @description Update a key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key?: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found), [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_revoked`](/docs/errors/key_revoked). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminRotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description How long the old secret keeps working beside the new one, in seconds (at most 604800, 7 days); absent, it stops working at once. Only one old secret works at a time: rotating again ends the grace of the one before. */
                    grace_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Rotate a key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_revoked`](/docs/errors/key_revoked). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoke a key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key?: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_revoked`](/docs/errors/key_revoked). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGrantCredits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Credits of a promotional grant to the key's account that lapses when this calendar month (UTC) ends. */
                    credits: number;
                    /** @description Why, for the audit log. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Grant credits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `key_...`: how the admin API and the CLI name the key. */
                        id: string;
                        /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                        account_id: string;
                        /** @description The full key: only in the answer that created or rotated it. */
                        key?: string;
                        /** @description The key's non-secret beginning, to recognise it by. */
                        prefix: string;
                        name: string;
                        plan: string;
                        /** @enum {string} */
                        status: "active" | "expired" | "revoked";
                        /** @description The key's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                        monthly_allowance: number;
                        metadata: {
                            [key: string]: string;
                        };
                        expires_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        revoked_at: string | null;
                        /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                        previous_prefix: string | null;
                        /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                        previous_secret_expires_at: string | null;
                        /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                        tools: string[] | null;
                        /**
                         * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                         * @enum {string}
                         */
                        access: "full" | "read";
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_revoked`](/docs/errors/key_revoked). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminKeyUsage: {
        parameters: {
            query?: {
                /** @description Most recent calls to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The key's id (`key_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A key's usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key_id: string;
                        /** @description What `GET /v1/me/credits` answers the key. */
                        credits: {
                            /** @description The account the key spends for: every figure here is the account's, shared by its keys. */
                            account_id: string;
                            /** @description The account's name, as its operator set it. */
                            account_name: string;
                            plan: string;
                            /** @description This month's allowance alone (grants come on top); null when metering is off. It renews on the 1st (UTC). */
                            monthly_allowance: number | null;
                            /** @description Credits of this month's allowance used. */
                            credits_used: number;
                            /** @description What is left of this month's allowance; null when metering is off. */
                            monthly_remaining: number | null;
                            /** @description What the account can spend now: `monthly_remaining` plus what its live grants have left. A call costing more answers 402. Null when metering is off. */
                            credits_remaining: number | null;
                            /** @description Its live grants with credits left, in the order calls spend them once the allowance is used: earliest `expires_at` first, never-expiring last, then oldest. */
                            grants: {
                                /** @description `grt_...` */
                                id: string;
                                remaining: number;
                                /** @description When what is left is gone; null: never. */
                                expires_at: string | null;
                                /** @enum {string} */
                                category: "paid" | "promotional";
                            }[];
                            /** Format: date-time */
                            period_start: string;
                            /** Format: date-time */
                            period_end: string;
                            metering: boolean;
                            /** @description The key asking and its scope (over OAuth: the key as the authorization acts, narrowed to the tools approved at consent). */
                            key: {
                                /** @description The key's id (`key_...`). */
                                id: string;
                                /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                                tools: string[] | null;
                                /**
                                 * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                                 * @enum {string}
                                 */
                                access: "full" | "read";
                            };
                        };
                        /** @description What `GET /v1/me/usage` answers the key. */
                        usage: {
                            /** Format: date-time */
                            period_start: string;
                            /** Format: date-time */
                            period_end: string;
                            credits_used: number;
                            calls: number;
                            by_tool: {
                                tool: string;
                                calls: number;
                                credits: number;
                            }[];
                            recent: {
                                request_id: string;
                                /** @description The key of the account that made the call. */
                                key_id: string;
                                tool: string;
                                status: string;
                                http_status?: number | null;
                                credits: number;
                                at: string;
                            }[];
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`key_not_found`](/docs/errors/key_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListToolSwitches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tool switches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tools: {
                            slug: string;
                            tool_version: string;
                            weight: number;
                            max_body_bytes: number;
                            /** @description false: calls answer 503 `tool_disabled`. */
                            enabled: boolean;
                            /** @description false: calls answer 403 `tool_not_allowed`. */
                            api: boolean;
                        }[];
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminSetToolSwitch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tool's slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description false: calls answer 503 `tool_disabled`. */
                    enabled?: boolean;
                    /** @description false: calls answer 403 `tool_not_allowed`, and MCP does not list it. */
                    api?: boolean;
                };
            };
        };
        responses: {
            /** @description Set a tool's switches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        tool_version: string;
                        weight: number;
                        max_body_bytes: number;
                        /** @description false: calls answer 503 `tool_disabled`. */
                        enabled: boolean;
                        /** @description false: calls answer 403 `tool_not_allowed`. */
                        api: boolean;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_found`](/docs/errors/tool_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListMembers: {
        parameters: {
            query?: {
                /** @description Most members to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only this account's members. */
                account_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List members */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        members: {
                            /** @description `mem_` and 16 letters or digits. */
                            id: string;
                            /** @description The one account the member belongs to. */
                            account_id: string;
                            /** @description The OpenID provider's issuer. */
                            issuer: string;
                            /** @description The member's subject at that provider. */
                            subject: string;
                            /** @description The email the provider verified; null if none. */
                            email: string | null;
                            name: string | null;
                            /**
                             * @description A disabled member cannot sign in; its sessions ended when it was disabled.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            /** Format: date-time */
                            created_at: string;
                            /** @description The last sign-in or console request. */
                            last_seen_at: string | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGetMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's id (`mem_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Read a member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `mem_` and 16 letters or digits. */
                        id: string;
                        /** @description The one account the member belongs to. */
                        account_id: string;
                        /** @description The OpenID provider's issuer. */
                        issuer: string;
                        /** @description The member's subject at that provider. */
                        subject: string;
                        /** @description The email the provider verified; null if none. */
                        email: string | null;
                        name: string | null;
                        /**
                         * @description A disabled member cannot sign in; its sessions ended when it was disabled.
                         * @enum {string}
                         */
                        status: "active" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** @description The last sign-in or console request. */
                        last_seen_at: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`member_not_found`](/docs/errors/member_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminDisableMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's id (`mem_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Disable a member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `mem_` and 16 letters or digits. */
                        id: string;
                        /** @description The one account the member belongs to. */
                        account_id: string;
                        /** @description The OpenID provider's issuer. */
                        issuer: string;
                        /** @description The member's subject at that provider. */
                        subject: string;
                        /** @description The email the provider verified; null if none. */
                        email: string | null;
                        name: string | null;
                        /**
                         * @description A disabled member cannot sign in; its sessions ended when it was disabled.
                         * @enum {string}
                         */
                        status: "active" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** @description The last sign-in or console request. */
                        last_seen_at: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`member_not_found`](/docs/errors/member_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminEnableMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's id (`mem_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Enable a member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `mem_` and 16 letters or digits. */
                        id: string;
                        /** @description The one account the member belongs to. */
                        account_id: string;
                        /** @description The OpenID provider's issuer. */
                        issuer: string;
                        /** @description The member's subject at that provider. */
                        subject: string;
                        /** @description The email the provider verified; null if none. */
                        email: string | null;
                        name: string | null;
                        /**
                         * @description A disabled member cannot sign in; its sessions ended when it was disabled.
                         * @enum {string}
                         */
                        status: "active" | "disabled";
                        /** Format: date-time */
                        created_at: string;
                        /** @description The last sign-in or console request. */
                        last_seen_at: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`member_not_found`](/docs/errors/member_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminInviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The email that may sign in and join the account; it must be the one the provider verified (matched without regard to case). */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Invite a member */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_id: string;
                        /** @description The invited email, lower case. */
                        email: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminAuditLog: {
        parameters: {
            query?: {
                /** @description Most entries to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only entries about this key id, admin key id or tool slug. */
                target?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit log */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        entries: {
                            /** Format: date-time */
                            at: string;
                            /** @description An admin key (its id), the CLI (`cli`, with the operating-system user as `id`), or a member signed in to the console (`member`, its id). */
                            actor: {
                                /** @enum {string} */
                                type: "admin_key" | "cli" | "member";
                                id: string;
                            };
                            /** @description `accounts.create`, `accounts.update`, `keys.create`, `keys.update`, `keys.rotate`, `keys.revoke`, `credits.grant`, `tools.set`, `admin_keys.create`, `admin_keys.revoke`, `members.create`, `members.invite`, `members.disable`, `members.enable`, `webhooks.create`, `webhooks.update`, `webhooks.delete`, `webhooks.retry`, `webhooks.test`. */
                            action: string;
                            /** @description The account id, key id, admin key id, member id, tool slug or webhook endpoint id acted on (a plan, allowance or grant changed through a key targets its account). */
                            target: string;
                            /** @description The admin request's id; null from the CLI. */
                            request_id: string | null;
                            /** @description What changed; never a secret. */
                            details: Record<string, never>;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List webhook endpoints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        webhooks: {
                            /** @description `whe_...`: how the admin API and the CLI name the endpoint. */
                            id: string;
                            url: string;
                            events: string[];
                            description: string;
                            /** @description false: nothing is sent to it; its pending deliveries wait. */
                            enabled: boolean;
                            /** @description `gone`: the service turned it off because it answered 410. null otherwise. */
                            disabled_reason: "gone" | null;
                            /** @description `whsec_...`, the key every delivery is signed with (Standard Webhooks): only in the answer that created the endpoint. */
                            secret?: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminCreateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries are POSTed: an absolute http or https URL. Any host the server can reach, loopback and private addresses included (the operator sets it). */
                    url: string;
                    /** @description The event types to receive: `credits.threshold`, `credits.depleted`, `credits.granted`, `key.revoked`, `webhook.test`, `job.succeeded`, `job.failed`. Sent today: `credits.threshold`, `credits.depleted`, `credits.granted`, `key.revoked`, `webhook.test`, `job.succeeded`, `job.failed`; the others may be subscribed to already. */
                    events: ("credits.threshold" | "credits.depleted" | "credits.granted" | "key.revoked" | "webhook.test" | "job.succeeded" | "job.failed")[];
                    /** @description What the endpoint is for. */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Create a webhook endpoint */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `whe_...`: how the admin API and the CLI name the endpoint. */
                        id: string;
                        url: string;
                        events: string[];
                        description: string;
                        /** @description false: nothing is sent to it; its pending deliveries wait. */
                        enabled: boolean;
                        /** @description `gone`: the service turned it off because it answered 410. null otherwise. */
                        disabled_reason: "gone" | null;
                        /** @description `whsec_...`, the key every delivery is signed with (Standard Webhooks): only in the answer that created the endpoint. */
                        secret: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGetWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Read a webhook endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `whe_...`: how the admin API and the CLI name the endpoint. */
                        id: string;
                        url: string;
                        events: string[];
                        description: string;
                        /** @description false: nothing is sent to it; its pending deliveries wait. */
                        enabled: boolean;
                        /** @description `gone`: the service turned it off because it answered 410. null otherwise. */
                        disabled_reason: "gone" | null;
                        /** @description `whsec_...`, the key every delivery is signed with (Standard Webhooks): only in the answer that created the endpoint. */
                        secret?: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminDeleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delete a webhook endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminUpdateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries are POSTed: an absolute http or https URL. Any host the server can reach, loopback and private addresses included (the operator sets it). */
                    url?: string;
                    /** @description The event types to receive: `credits.threshold`, `credits.depleted`, `credits.granted`, `key.revoked`, `webhook.test`, `job.succeeded`, `job.failed`. Sent today: `credits.threshold`, `credits.depleted`, `credits.granted`, `key.revoked`, `webhook.test`, `job.succeeded`, `job.failed`; the others may be subscribed to already. */
                    events?: ("credits.threshold" | "credits.depleted" | "credits.granted" | "key.revoked" | "webhook.test" | "job.succeeded" | "job.failed")[];
                    /** @description What the endpoint is for. */
                    description?: string;
                    /** @description false: nothing is sent to it, and its pending deliveries wait; true: they go on (an endpoint turned off by a 410 is turned on again this way). */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Update a webhook endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `whe_...`: how the admin API and the CLI name the endpoint. */
                        id: string;
                        url: string;
                        events: string[];
                        description: string;
                        /** @description false: nothing is sent to it; its pending deliveries wait. */
                        enabled: boolean;
                        /** @description `gone`: the service turned it off because it answered 410. null otherwise. */
                        disabled_reason: "gone" | null;
                        /** @description `whsec_...`, the key every delivery is signed with (Standard Webhooks): only in the answer that created the endpoint. */
                        secret?: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Most deliveries to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A webhook endpoint's deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        deliveries: {
                            /** @description `dlv_...`: this event's delivery to this endpoint. */
                            id: string;
                            /** @description `evt_...`: the `webhook-id` header, the same on every attempt. */
                            event_id: string;
                            event_type: string;
                            /**
                             * @description `failed`: given up (the retry schedule is spent, or the endpoint answered 410).
                             * @enum {string}
                             */
                            state: "pending" | "delivered" | "failed";
                            attempts: number;
                            /** @description When it is tried next; null once delivered or given up. */
                            next_attempt_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            delivered_at: string | null;
                            /** @description Every attempt, oldest first. */
                            attempt_log: {
                                attempt: number;
                                /** Format: date-time */
                                at: string;
                                /** @description null: no answer came. */
                                status_code: number | null;
                                /** @description What went wrong; null for a 2xx. */
                                error: string | null;
                                duration_ms: number;
                            }[];
                        }[];
                        /** @description Pass as `cursor` for the next page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminRetryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
                /** @description The delivery's id (`dlv_...`). */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Retry a webhook delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `dlv_...`: this event's delivery to this endpoint. */
                        id: string;
                        /** @description `evt_...`: the `webhook-id` header, the same on every attempt. */
                        event_id: string;
                        event_type: string;
                        /**
                         * @description `failed`: given up (the retry schedule is spent, or the endpoint answered 410).
                         * @enum {string}
                         */
                        state: "pending" | "delivered" | "failed";
                        attempts: number;
                        /** @description When it is tried next; null once delivered or given up. */
                        next_attempt_at: string | null;
                        /** Format: date-time */
                        created_at: string;
                        delivered_at: string | null;
                        /** @description Every attempt, oldest first. */
                        attempt_log: {
                            attempt: number;
                            /** Format: date-time */
                            at: string;
                            /** @description null: no answer came. */
                            status_code: number | null;
                            /** @description What went wrong; null for a 2xx. */
                            error: string | null;
                            duration_ms: number;
                        }[];
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found), [`webhook_delivery_not_found`](/docs/errors/webhook_delivery_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id (`whe_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Send a test event */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The `webhook-id` the test delivery carries. */
                        event_id: string;
                        /** @constant */
                        type: "webhook.test";
                        /** @description 1: the test delivery is queued. */
                        deliveries: number;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`webhook_not_found`](/docs/errors/webhook_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListAccounts: {
        parameters: {
            query?: {
                /** @description Most accounts to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List accounts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        accounts: {
                            /** @description `acc_...`: how the admin API and the CLI name the account. */
                            id: string;
                            name: string;
                            plan: string;
                            /** @description The account's own monthly allowance; null when it uses its plan's. */
                            own_monthly_allowance: number | null;
                            /** @description The account's allowance this calendar month (UTC), its own or its plan's, shared by its keys; its grants come on top. */
                            monthly_allowance: number;
                            /** @description Credits of `monthly_allowance` its keys hold this month (pending and charged calls). */
                            credits_used: number;
                            /** @description What is left of `monthly_allowance` this month; null when metering is off. */
                            monthly_remaining: number | null;
                            /** @description What its keys can spend now: `monthly_remaining` plus what its live grants have left; null when metering is off. */
                            credits_remaining: number | null;
                            /** @description Its live grants with credits left, in the order calls spend them. */
                            grants: {
                                /** @description `grt_...` */
                                id: string;
                                account_id: string;
                                /** @description Credits granted. */
                                credits: number;
                                /** @description Credits not spent yet. */
                                remaining: number;
                                /** @description When what is left of it is gone; null: never. */
                                expires_at: string | null;
                                /** @enum {string} */
                                category: "paid" | "promotional";
                                /** @description The payment or campaign it stands for; unique on the account. */
                                reference: string | null;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            metadata: {
                                [key: string]: string;
                            };
                            /** @description The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's. */
                            alerts: {
                                /** @description Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month. */
                                usedPercent?: number[];
                                /** @description Spendable credits at or below which `credits.threshold` is sent, once each per month. */
                                remainingBelow?: number[];
                            } | null;
                            /** @description How many keys the account has, revoked ones included. */
                            key_count: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        /** @description Pass as `cursor` for the next page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminCreateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A name to recognise the account by. */
                    name: string;
                    /** @description A configured plan: free, builder, or one from TOOLRUN_CONFIG. */
                    plan: string;
                    /** @description The account's own monthly allowance instead of its plan's; null for the plan's. */
                    monthly_allowance?: number | null;
                    /** @description The operator's own labels, replaced as a whole: at most 20 names of 1 to 40 letters, digits, `_`, `.` or `-`, each with a string of at most 500 characters. Never put secrets here. */
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Create an account */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `acc_...`: how the admin API and the CLI name the account. */
                        id: string;
                        name: string;
                        plan: string;
                        /** @description The account's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's, shared by its keys; its grants come on top. */
                        monthly_allowance: number;
                        /** @description Credits of `monthly_allowance` its keys hold this month (pending and charged calls). */
                        credits_used: number;
                        /** @description What is left of `monthly_allowance` this month; null when metering is off. */
                        monthly_remaining: number | null;
                        /** @description What its keys can spend now: `monthly_remaining` plus what its live grants have left; null when metering is off. */
                        credits_remaining: number | null;
                        /** @description Its live grants with credits left, in the order calls spend them. */
                        grants: {
                            /** @description `grt_...` */
                            id: string;
                            account_id: string;
                            /** @description Credits granted. */
                            credits: number;
                            /** @description Credits not spent yet. */
                            remaining: number;
                            /** @description When what is left of it is gone; null: never. */
                            expires_at: string | null;
                            /** @enum {string} */
                            category: "paid" | "promotional";
                            /** @description The payment or campaign it stands for; unique on the account. */
                            reference: string | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        metadata: {
                            [key: string]: string;
                        };
                        /** @description The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's. */
                        alerts: {
                            /** @description Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month. */
                            usedPercent?: number[];
                            /** @description Spendable credits at or below which `credits.threshold` is sent, once each per month. */
                            remainingBelow?: number[];
                        } | null;
                        /** @description How many keys the account has, revoked ones included. */
                        key_count: number;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGetAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get an account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `acc_...`: how the admin API and the CLI name the account. */
                        id: string;
                        name: string;
                        plan: string;
                        /** @description The account's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's, shared by its keys; its grants come on top. */
                        monthly_allowance: number;
                        /** @description Credits of `monthly_allowance` its keys hold this month (pending and charged calls). */
                        credits_used: number;
                        /** @description What is left of `monthly_allowance` this month; null when metering is off. */
                        monthly_remaining: number | null;
                        /** @description What its keys can spend now: `monthly_remaining` plus what its live grants have left; null when metering is off. */
                        credits_remaining: number | null;
                        /** @description Its live grants with credits left, in the order calls spend them. */
                        grants: {
                            /** @description `grt_...` */
                            id: string;
                            account_id: string;
                            /** @description Credits granted. */
                            credits: number;
                            /** @description Credits not spent yet. */
                            remaining: number;
                            /** @description When what is left of it is gone; null: never. */
                            expires_at: string | null;
                            /** @enum {string} */
                            category: "paid" | "promotional";
                            /** @description The payment or campaign it stands for; unique on the account. */
                            reference: string | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        metadata: {
                            [key: string]: string;
                        };
                        /** @description The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's. */
                        alerts: {
                            /** @description Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month. */
                            usedPercent?: number[];
                            /** @description Spendable credits at or below which `credits.threshold` is sent, once each per month. */
                            remainingBelow?: number[];
                        } | null;
                        /** @description How many keys the account has, revoked ones included. */
                        key_count: number;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminUpdateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A name to recognise the account by. */
                    name?: string;
                    /** @description A configured plan: free, builder, or one from TOOLRUN_CONFIG. */
                    plan?: string;
                    /** @description The account's own monthly allowance instead of its plan's; null for the plan's. */
                    monthly_allowance?: number | null;
                    /** @description The operator's own labels, replaced as a whole: at most 20 names of 1 to 40 letters, digits, `_`, `.` or `-`, each with a string of at most 500 characters. Never put secrets here. */
                    metadata?: {
                        [key: string]: string;
                    };
                    /** @description The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's (`alerts` in TOOLRUN_CONFIG). */
                    alerts?: {
                        /** @description Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month. */
                        usedPercent?: number[];
                        /** @description Spendable credits at or below which `credits.threshold` is sent, once each per month. */
                        remainingBelow?: number[];
                    } | null;
                };
            };
        };
        responses: {
            /** @description Update an account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `acc_...`: how the admin API and the CLI name the account. */
                        id: string;
                        name: string;
                        plan: string;
                        /** @description The account's own monthly allowance; null when it uses its plan's. */
                        own_monthly_allowance: number | null;
                        /** @description The account's allowance this calendar month (UTC), its own or its plan's, shared by its keys; its grants come on top. */
                        monthly_allowance: number;
                        /** @description Credits of `monthly_allowance` its keys hold this month (pending and charged calls). */
                        credits_used: number;
                        /** @description What is left of `monthly_allowance` this month; null when metering is off. */
                        monthly_remaining: number | null;
                        /** @description What its keys can spend now: `monthly_remaining` plus what its live grants have left; null when metering is off. */
                        credits_remaining: number | null;
                        /** @description Its live grants with credits left, in the order calls spend them. */
                        grants: {
                            /** @description `grt_...` */
                            id: string;
                            account_id: string;
                            /** @description Credits granted. */
                            credits: number;
                            /** @description Credits not spent yet. */
                            remaining: number;
                            /** @description When what is left of it is gone; null: never. */
                            expires_at: string | null;
                            /** @enum {string} */
                            category: "paid" | "promotional";
                            /** @description The payment or campaign it stands for; unique on the account. */
                            reference: string | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        metadata: {
                            [key: string]: string;
                        };
                        /** @description The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's. */
                        alerts: {
                            /** @description Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month. */
                            usedPercent?: number[];
                            /** @description Spendable credits at or below which `credits.threshold` is sent, once each per month. */
                            remainingBelow?: number[];
                        } | null;
                        /** @description How many keys the account has, revoked ones included. */
                        key_count: number;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListAccountKeys: {
        parameters: {
            query?: {
                /** @description Most keys to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        keys: {
                            /** @description `key_...`: how the admin API and the CLI name the key. */
                            id: string;
                            /** @description `acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys. */
                            account_id: string;
                            /** @description The full key: only in the answer that created or rotated it. */
                            key?: string;
                            /** @description The key's non-secret beginning, to recognise it by. */
                            prefix: string;
                            name: string;
                            plan: string;
                            /** @enum {string} */
                            status: "active" | "expired" | "revoked";
                            /** @description The key's own monthly allowance; null when it uses its plan's. */
                            own_monthly_allowance: number | null;
                            /** @description The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`). */
                            monthly_allowance: number;
                            metadata: {
                                [key: string]: string;
                            };
                            expires_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            revoked_at: string | null;
                            /** @description The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise. */
                            previous_prefix: string | null;
                            /** @description Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired). */
                            previous_secret_expires_at: string | null;
                            /** @description The slugs of the only tools the key may see and call; null when it may use every tool. */
                            tools: string[] | null;
                            /**
                             * @description `full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.
                             * @enum {string}
                             */
                            access: "full" | "read";
                        }[];
                        /** @description Pass as `cursor` for the next page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminAccountUsage: {
        parameters: {
            query?: {
                /** @description Most recent calls to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_id: string;
                        /** @description What `GET /v1/me/credits` answers each of its keys, but for the `key` member. */
                        credits: {
                            /** @description The account the key spends for: every figure here is the account's, shared by its keys. */
                            account_id: string;
                            /** @description The account's name, as its operator set it. */
                            account_name: string;
                            plan: string;
                            /** @description This month's allowance alone (grants come on top); null when metering is off. It renews on the 1st (UTC). */
                            monthly_allowance: number | null;
                            /** @description Credits of this month's allowance used. */
                            credits_used: number;
                            /** @description What is left of this month's allowance; null when metering is off. */
                            monthly_remaining: number | null;
                            /** @description What the account can spend now: `monthly_remaining` plus what its live grants have left. A call costing more answers 402. Null when metering is off. */
                            credits_remaining: number | null;
                            /** @description Its live grants with credits left, in the order calls spend them once the allowance is used: earliest `expires_at` first, never-expiring last, then oldest. */
                            grants: {
                                /** @description `grt_...` */
                                id: string;
                                remaining: number;
                                /** @description When what is left is gone; null: never. */
                                expires_at: string | null;
                                /** @enum {string} */
                                category: "paid" | "promotional";
                            }[];
                            /** Format: date-time */
                            period_start: string;
                            /** Format: date-time */
                            period_end: string;
                            metering: boolean;
                        };
                        /** @description What `GET /v1/me/usage` answers each of its keys. */
                        usage: {
                            /** Format: date-time */
                            period_start: string;
                            /** Format: date-time */
                            period_end: string;
                            credits_used: number;
                            calls: number;
                            by_tool: {
                                tool: string;
                                calls: number;
                                credits: number;
                            }[];
                            recent: {
                                request_id: string;
                                /** @description The key of the account that made the call. */
                                key_id: string;
                                tool: string;
                                status: string;
                                http_status?: number | null;
                                credits: number;
                                at: string;
                            }[];
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListAccountGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An account's grants */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The account's live grants with credits left, in the order calls spend them. */
                        grants: {
                            /** @description `grt_...` */
                            id: string;
                            account_id: string;
                            /** @description Credits granted. */
                            credits: number;
                            /** @description Credits not spent yet. */
                            remaining: number;
                            /** @description When what is left of it is gone; null: never. */
                            expires_at: string | null;
                            /** @enum {string} */
                            category: "paid" | "promotional";
                            /** @description The payment or campaign it stands for; unique on the account. */
                            reference: string | null;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminGrantAccountCredits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id (`acc_...`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Credits granted. */
                    credits: number;
                    /** @description RFC 3339 date-time, in the future, at which what is left of the grant is gone; absent or null: it never expires. */
                    expires_at?: string | null;
                    /**
                     * @description `paid` (bought) or `promotional` (given); `promotional` when absent.
                     * @enum {string}
                     */
                    category?: "paid" | "promotional";
                    /** @description The payment or campaign the grant stands for. The same reference on the same account grants once: asked again, it answers 200 with the first grant. */
                    reference?: string | null;
                    /** @description Why, for the audit log. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The account's grant of that `reference`, made earlier */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `grt_...` */
                        id: string;
                        account_id: string;
                        /** @description Credits granted. */
                        credits: number;
                        /** @description Credits not spent yet. */
                        remaining: number;
                        /** @description When what is left of it is gone; null: never. */
                        expires_at: string | null;
                        /** @enum {string} */
                        category: "paid" | "promotional";
                        /** @description The payment or campaign it stands for; unique on the account. */
                        reference: string | null;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description Grant an account credits */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `grt_...` */
                        id: string;
                        account_id: string;
                        /** @description Credits granted. */
                        credits: number;
                        /** @description Credits not spent yet. */
                        remaining: number;
                        /** @description When what is left of it is gone; null: never. */
                        expires_at: string | null;
                        /** @enum {string} */
                        category: "paid" | "promotional";
                        /** @description The payment or campaign it stands for; unique on the account. */
                        reference: string | null;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`account_not_found`](/docs/errors/account_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminListCalls: {
        parameters: {
            query?: {
                /** @description Only the calls of this account (`acc_...`). */
                account?: string;
                /** @description Only the calls made with this key (`key_...`). */
                key?: string;
                /** @description Only the calls of this tool (its slug). */
                tool?: string;
                /** @description Only the calls that ended so. */
                outcome?: "pending" | "charged" | "refunded";
                /** @description Only the calls made at or after this RFC 3339 date-time. */
                since?: string;
                /** @description Only the calls made before this RFC 3339 date-time. */
                until?: string;
                /** @description Most calls to return. */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List calls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. No request body is ever stored. */
                        calls: {
                            /** @description The call's id (the export's event `id`). */
                            id: string;
                            request_id: string;
                            account_id: string;
                            tool: string;
                            /**
                             * @description `pending` while a reservation runs.
                             * @enum {string}
                             */
                            outcome: "pending" | "charged" | "refunded";
                            /** @description The status the call ended with. */
                            http_status: number | null;
                            /** @description Credits charged; 0 when refunded. */
                            credits: number;
                            /**
                             * Format: date-time
                             * @description When the call was made.
                             */
                            at: string;
                            /** @description When it was charged or refunded; null while pending. */
                            settled_at: string | null;
                            /** @description The key that made the call (or that the OAuth authorization acts for). */
                            key_id: string;
                            /** @description `key` when the key itself was sent, or the `authz_...` id of the OAuth authorization whose access token was; null for calls recorded before toolrun kept it. */
                            credential: string | null;
                            /** @description How the call came. */
                            transport: ("http" | "mcp") | null;
                            /** @description The client that called, when anything is known of it; null otherwise. */
                            client: {
                                /** @description The OAuth client the authorization was granted to; null for a key. */
                                id: string | null;
                                /** @description The MCP client's clientInfo `name`, when it sent one. */
                                name: string | null;
                                /** @description The MCP client's clientInfo `version`, when it sent one. */
                                version: string | null;
                            } | null;
                        }[];
                        /** @description Pass as `cursor` for the next page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    adminExportUsage: {
        parameters: {
            query?: {
                /** @description Only the calls of this account (`acc_...`). */
                account?: string;
                /** @description Only the calls settled at or after this RFC 3339 date-time. */
                since?: string;
                /** @description Only the calls settled before this RFC 3339 date-time. */
                until?: string;
                /** @description Most events to return. */
                limit?: number;
                /** @description The `toolrun-next-cursor` header of the previous answer: the events after it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Export usage events */
            200: {
                headers: {
                    /** @description Where the next read starts: pass it as `cursor`. Absent only when nothing was ever read. */
                    "toolrun-next-cursor"?: string;
                    /** @description `true` when more events are ready now: read again with the cursor at once. */
                    "toolrun-more"?: "true" | "false";
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": unknown;
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        checks: {
                            /** @enum {string} */
                            database: "ok" | "unreachable" | "missing" | "read_only" | "full" | "locked" | "unchecked";
                            /** @enum {string} */
                            rate_limiter: "ok" | "unreachable" | "missing" | "read_only" | "full" | "locked" | "unchecked";
                            /** @enum {string} */
                            schema: "ok" | "unreachable" | "missing" | "read_only" | "full" | "locked" | "unchecked";
                            /** @enum {string} */
                            writes: "ok" | "unreachable" | "missing" | "read_only" | "full" | "locked" | "unchecked";
                        };
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    reference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    errorCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list of error codes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    errorCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page of the code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The site's 404 page, to a browser (its Accept prefers text/html). Or a problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    captureHookGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's secret token, from its `url`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    captureHookPut: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's secret token, from its `url`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    captureHookPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's secret token, from its `url`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    captureHookDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's secret token, from its `url`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    captureHookPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The capture's secret token, from its `url`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                    };
                };
            };
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`not_found`](/docs/errors/not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`uri_too_long`](/docs/errors/uri_too_long). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mcpStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A problem: [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`method_not_allowed`](/docs/errors/method_not_allowed). */
            405: {
                headers: {
                    /** @description The methods the path accepts. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never> | Record<string, never>[];
            };
        };
        responses: {
            /** @description The JSON-RPC answer (a tool that ran and failed is a result with `isError`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never> | Record<string, never>[];
                };
            };
            /** @description A notification or response was accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description A JSON-RPC error from the transport: a body that is not JSON-RPC or nests deeper than 64 levels, or missing Accept or Content-Type. Or a problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`origin_not_allowed`](/docs/errors/origin_not_allowed). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A JSON-RPC error from the transport: a body that is not JSON-RPC or nests deeper than 64 levels, or missing Accept or Content-Type. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A JSON-RPC error from the transport: a body that is not JSON-RPC or nests deeper than 64 levels, or missing Accept or Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "callTool.retaining-wall-pressure-calculator": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a retry with the same key, tool and body gets the first answer (200 or 422) again, charged once; after a 500 it runs again. 1 to 255 visible ASCII characters, a UUID for example; kept for the account for TOOLRUN_IDEMPOTENCY_TTL_S seconds (a day by default). */
                "Idempotency-Key"?: string;
                /** @description `respond-async`: run the call as a job when its tool allows (answered 202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Unit System
                     * @description metric: m, kN/m³, kPa; imperial: ft, pcf (lb/ft³), psf (lb/ft²). Every length, unit weight and pressure is in this system; nothing is converted. Default metric.
                     * @default metric
                     * @enum {string}
                     */
                    units?: "metric" | "imperial";
                    /**
                     * Earth Pressure State
                     * @description active: the wall yields away from the soil (Ka); atrest: the wall does not move (K0, Jaky, whatever the theory); passive: the wall is pushed into the soil (Kp). Default active.
                     * @default active
                     * @enum {string}
                     */
                    state?: "active" | "atrest" | "passive";
                    /**
                     * Theory
                     * @description rankine: a vertical back and no wall friction (the thrust is parallel to the backfill); coulomb: Coulomb's wedge, with wall friction and an inclined back. The at-rest state uses K0 (Jaky) under either. Default rankine.
                     * @default rankine
                     * @enum {string}
                     */
                    method?: "rankine" | "coulomb";
                    /**
                     * Wall Height (H)
                     * @description Vertical height of the back the soil presses on, from the backfill surface at the wall down to the base: m (metric) or ft (imperial).
                     */
                    height: number | string;
                    /**
                     * Wall Friction Angle (delta)
                     * @description Friction angle between the soil and the wall back, degrees, from 0 to the friction angle. Coulomb only, active or passive. Default 0.
                     * @default 0
                     */
                    wallFriction?: number | string;
                    /**
                     * Wall Back Inclination (theta)
                     * @description Angle of the wall back from the vertical, degrees (−30 to 30): positive when the back leans away from the backfill so that the soil rests on it, negative when it overhangs the soil. Coulomb only, active or passive. Default 0.
                     * @default 0
                     */
                    wallInclination?: number | string;
                    /**
                     * Soil Unit Weight (gamma)
                     * @description Unit weight of the backfill (above the water table): kN/m³ (metric) or pcf, lb/ft³ (imperial).
                     */
                    unitWeight: number | string;
                    /**
                     * Friction Angle (phi)
                     * @description Angle of internal friction of the backfill, degrees (1 to 50).
                     */
                    frictionAngle: number | string;
                    /**
                     * Soil Cohesion (c)
                     * @description Effective cohesion of the backfill: kPa (metric) or psf (imperial). Rankine with a level backfill only; active pressure below zero is taken as zero (the tension crack); ignored at rest. Not with an earthquake. Default 0.
                     * @default 0
                     */
                    cohesion?: number | string;
                    /**
                     * Backfill Slope (beta)
                     * @description Inclination of the backfill surface rising away from the wall, degrees (0 to 45). Must not exceed the friction angle (422 otherwise). Default 0.
                     * @default 0
                     */
                    backfillSlope?: number | string;
                    /**
                     * Uniform Surcharge (q)
                     * @description Uniform vertical load per unit horizontal area on the backfill surface: kPa (metric) or psf, lb/ft² (imperial). Not with an earthquake. Default 0.
                     * @default 0
                     */
                    surcharge?: number | string;
                    /**
                     * Water Table Depth (zw)
                     * @description Depth of the water table below the top of the wall: m (metric) or ft (imperial). Absent, or at or below the base: dry. A table above the base needs a level backfill and a vertical back, and no earthquake.
                     */
                    waterDepth?: number | string;
                    /**
                     * Saturated Unit Weight (gamma_sat)
                     * @description Unit weight of the backfill below the water table: kN/m³ (metric) or pcf (imperial); at least that of water (9.81 kN/m³, 62.4 pcf). Default: the soil unit weight.
                     */
                    saturatedUnitWeight?: number | string;
                    /**
                     * Horizontal Seismic Coefficient (kh)
                     * @description Horizontal pseudo-static acceleration as a fraction of g (0 to 0.5), for the Mononobe-Okabe thrust. Active state only, with no water table above the base, no cohesion and no surcharge. Default 0.
                     * @default 0
                     */
                    seismicKh?: number | string;
                    /**
                     * Vertical Seismic Coefficient (kv)
                     * @description Vertical pseudo-static acceleration as a fraction of g (−0.3 to 0.3), positive when the inertia force acts upward (it lightens the wedge by 1 − kv). Needs a seismicKh above 0. Default 0.
                     * @default 0
                     */
                    seismicKv?: number | string;
                };
            };
        };
        responses: {
            /** @description The tool ran. */
            200: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        tool: "retaining-wall-pressure-calculator";
                        tool_version: string;
                        /** Retaining Wall Pressure Calculator outputs */
                        outputs: {
                            /** @description One-line summary, e.g. "Active thrust 91.67 kN/m acting 1.82 m above the base"; an inclined thrust also names its angle. When Coulomb, cohesion, a water table above the base or an earthquake is used, a closing parenthesis names the theory and the loads, e.g. "(Coulomb; surcharge 10.00 kPa)". */
                            status: string;
                            /** @description Rows in this order: "Earth Pressure State"; the coefficient, named "Active Coefficient (Ka)", "At-Rest Coefficient (K0)" or "Passive Coefficient (Kp)" (4 decimals); with an earthquake "Seismic Inertia Angle (psi)" and "Seismic Active Coefficient (KAE)"; "Surcharge Pressure (Kq)"; with cohesion in the active state "Tension Crack Depth (zc)"; "Pressure at Base"; with a water table above the base "Water Thrust (Pw)"; with an earthquake "Static Thrust (PA)" and "Dynamic Thrust Increment (dPAE)"; "Total Thrust (P)"; "Thrust Direction"; "Horizontal Thrust (Ph)" and "Vertical Thrust (Pv)" only when the earth thrust is inclined; "Thrust Height Above Base"; "Overturning Moment About Base". Values carry their unit and 2 decimals. */
                            result: {
                                /** @enum {string} */
                                property: "Earth Pressure State" | "Active Coefficient (Ka)" | "At-Rest Coefficient (K0)" | "Passive Coefficient (Kp)" | "Seismic Inertia Angle (psi)" | "Seismic Active Coefficient (KAE)" | "Surcharge Pressure (Kq)" | "Tension Crack Depth (zc)" | "Pressure at Base" | "Water Thrust (Pw)" | "Static Thrust (PA)" | "Dynamic Thrust Increment (dPAE)" | "Total Thrust (P)" | "Thrust Direction" | "Horizontal Thrust (Ph)" | "Vertical Thrust (Pv)" | "Thrust Height Above Base" | "Overturning Moment About Base";
                                value: string;
                            }[];
                            /** @description The figures of `result` as unrounded numbers; `units` names the unit of each. */
                            values: {
                                /** @description Ka, K0 or Kp of the theory: the static coefficient of the requested state. */
                                coefficient: number;
                                /** @description The uniform part of the earth pressure from the surcharge: K·q (Rankine, at rest), K·q·cosθ·cosβ/cos(θ−β) (Coulomb). */
                                surchargePressure: number;
                                /** @description The pressure at the base: earth plus water; with an earthquake, the static earth pressure. */
                                basePressure: number;
                                /** @description Total thrust per unit length of wall: the earth thrust plus the water thrust; with an earthquake PAE. */
                                thrust: number;
                                /** @description Horizontal component of the thrust, toward the wall (earth and water). */
                                horizontalThrust: number;
                                /** @description Vertical component of the earth thrust, positive downward, negative when it pushes up on the wall (Coulomb passive with δ > θ, Coulomb active with θ < −δ); 0 when horizontal. */
                                verticalThrust: number;
                                /** @description Angle of the earth thrust to the horizontal, positive when it pushes down on the wall: β under Rankine (parallel to the backfill), δ + θ for Coulomb active, θ − δ for Coulomb passive, 0 at rest. Water pushes horizontally. */
                                thrustInclination: number;
                                /** @description Height of the line of action above the base, ȳ: the centroid of the whole pressure diagram. */
                                thrustHeight: number;
                                /** @description About the base, per unit length of wall: each horizontal part (earth, water) times the height it acts at. */
                                overturningMoment: number;
                                /** @description KAE (Mononobe-Okabe) with an earthquake; without one, the static coefficient, which KAE reduces to. */
                                seismicCoefficient: number;
                                /** @description ψ = atan(kh / (1 − kv)), degrees; 0 without an earthquake. */
                                seismicInertiaAngle: number;
                                /** @description The thrust without the earthquake, PA (the static part, at H/3); equal to `thrust` without an earthquake. */
                                staticThrust: number;
                                /** @description ΔPAE = PAE − PA, acting at 0.6 H (Seed and Whitman); 0 without an earthquake. Negative when an upward kv lightens the wedge more than kh loads it. */
                                dynamicIncrement: number;
                                /** @description ½·γw·(H − zw)², horizontal, at (H − zw)/3; 0 when dry. */
                                waterThrust: number;
                                /** @description Depth of the top zone where the active earth pressure (less 2c√Ka) is zero: 0 where there is none, H when the whole height is in tension. */
                                tensionCrackDepth: number;
                                /** @description δ used: the wall friction angle under Coulomb, 0 under Rankine and at rest. */
                                wallFrictionAngle: number;
                                /**
                                 * @description The theory requested.
                                 * @enum {string}
                                 */
                                method: "rankine" | "coulomb";
                                /** @description The unit of each numeric member of `values`, of `depth`, `pressure` and `waterPressure` in `diagram`, and of `leverArm` and `moment` in `components`. */
                                units: {
                                    /**
                                     * @description Dimensionless.
                                     * @constant
                                     */
                                    coefficient: "1";
                                    /**
                                     * @description Pressure.
                                     * @enum {string}
                                     */
                                    surchargePressure: "kPa" | "psf";
                                    /**
                                     * @description Pressure.
                                     * @enum {string}
                                     */
                                    basePressure: "kPa" | "psf";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    thrust: "kN/m" | "lb/ft";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    horizontalThrust: "kN/m" | "lb/ft";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    verticalThrust: "kN/m" | "lb/ft";
                                    /**
                                     * @description Degrees.
                                     * @constant
                                     */
                                    thrustInclination: "deg";
                                    /**
                                     * @description Length.
                                     * @enum {string}
                                     */
                                    thrustHeight: "m" | "ft";
                                    /**
                                     * @description Moment per unit length of wall.
                                     * @enum {string}
                                     */
                                    overturningMoment: "kN·m/m" | "lb·ft/ft";
                                    /**
                                     * @description Dimensionless.
                                     * @constant
                                     */
                                    seismicCoefficient: "1";
                                    /**
                                     * @description Degrees.
                                     * @constant
                                     */
                                    seismicInertiaAngle: "deg";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    staticThrust: "kN/m" | "lb/ft";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    dynamicIncrement: "kN/m" | "lb/ft";
                                    /**
                                     * @description Force per unit length of wall.
                                     * @enum {string}
                                     */
                                    waterThrust: "kN/m" | "lb/ft";
                                    /**
                                     * @description Length.
                                     * @enum {string}
                                     */
                                    tensionCrackDepth: "m" | "ft";
                                    /**
                                     * @description Degrees.
                                     * @constant
                                     */
                                    wallFrictionAngle: "deg";
                                    /**
                                     * @description Length.
                                     * @enum {string}
                                     */
                                    depth: "m" | "ft";
                                    /**
                                     * @description Pressure.
                                     * @enum {string}
                                     */
                                    pressure: "kPa" | "psf";
                                    /**
                                     * @description Pressure.
                                     * @enum {string}
                                     */
                                    waterPressure: "kPa" | "psf";
                                    /**
                                     * @description Length.
                                     * @enum {string}
                                     */
                                    leverArm: "m" | "ft";
                                    /**
                                     * @description Moment per unit length of wall.
                                     * @enum {string}
                                     */
                                    moment: "kN·m/m" | "lb·ft/ft";
                                };
                            };
                            /** @description The pressure diagram from the top of the wall (depth 0) to the base (depth H): 5 evenly spaced points, and a point at every break (the bottom of the tension crack, the water table) inside the wall, in order of depth. Straight lines between the points are exact, so its area is the total thrust and its centroid the thrust height. `pressure` is the total per unit of vertical height (the earth part in the earth thrust's direction, plus water); `waterPressure`, present on every point when a water table lies above the base, is the water part. With an earthquake the Seed and Whitman increment is drawn as the linear distribution with its resultant at 0.6 H (1.6ΔPAE/H at the top, 0.4ΔPAE/H at the base), so `pressure` near the top is negative when ΔPAE is. */
                            diagram: {
                                /** @description Depth below the top of the wall. */
                                depth: number;
                                /** @description Total pressure at that depth: earth plus water. */
                                pressure: number;
                                /** @description The water part of `pressure`: γw·(depth − zw) below the table, 0 above it. */
                                waterPressure?: number;
                            }[];
                            /** @description The calculation step by step, for a checker: the coefficient (with ψ and KAE under an earthquake), the surcharge and cohesion terms, the tension crack, the pressures at the water table and the base (soil and water), the seismic thrust and its increment, then the total thrust, its horizontal component, the height of the resultant and the overturning moment. Each row gives the formula in symbols (φ, β, δ, θ, ψ in degrees), the same with the values of this case put in, and the result with its unit, rounded as in `result`. */
                            method: {
                                /** @description What the row works out, e.g. "Active coefficient (Rankine)". */
                                quantity: string;
                                /** @description In symbols, e.g. "Ka = tan²(45° − φ/2)". */
                                formula: string;
                                /** @description With the values put in, e.g. "tan²(45° − 30°/2)". */
                                substitution: string;
                                /** @description The figure with its unit, e.g. "0.3333" or "33.33 kPa". */
                                result: string;
                            }[];
                            /** @description The thrust as the parts a hand calculation adds, each with the height of its line of action above the base (its lever arm) and its moment about the base: the rectangle and triangle of each straight stretch of the soil diagram (above and below the water table, below the tension crack), the water, or under an earthquake the static thrust at H/3 and the dynamic increment at 0.6 H. The last row, `Total`, is the tool's total thrust, horizontal thrust and overturning moment, which the parts add up to (to rounding). */
                            components: {
                                /** @description What the part is, e.g. "Soil", "Surcharge", "Water", "Total". */
                                component: string;
                                /** @description Its thrust in symbols and with the values put in, e.g. "½·Ka·γ·H² = ½ × 0.3333 × 18 × 5²". */
                                formula: string;
                                /** @description The part's thrust per unit length of wall, in its direction (negative only for a negative dynamic increment). */
                                thrust: number;
                                /** @description Its horizontal component; present only when the earth thrust is inclined. */
                                horizontalThrust?: number;
                                /** @description Height of its line of action above the base; absent on the `Total` row. */
                                leverArm?: number;
                                /** @description Its horizontal component times its lever arm: its share of the overturning moment. */
                                moment: number;
                            }[];
                            /** @description The assumptions behind the figures, as sentences: characteristic values with no partial factors, per unit length of wall, drained; the theory's; the surcharge's, the tension crack's (no water in it), the water table's (hydrostatic) or a drained backfill, the earthquake's; and which components the overturning moment takes. */
                            assumptions: string[];
                        };
                        credits_used: number;
                        credits_remaining: number | null;
                        request_id?: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`insufficient_credits`](/docs/errors/insufficient_credits), [`vendor_api_tier_limit_exceeded`](/docs/errors/vendor_api_tier_limit_exceeded). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_allowed`](/docs/errors/tool_not_allowed), [`key_read_only`](/docs/errors/key_read_only). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_found`](/docs/errors/tool_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`idempotency_key_in_use`](/docs/errors/idempotency_key_in_use). */
            409: {
                headers: {
                    /** @description Always 1: retry in a second. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`unprocessable_input`](/docs/errors/unprocessable_input), [`idempotency_key_mismatch`](/docs/errors/idempotency_key_mismatch). */
            422: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`too_many_large_calls`](/docs/errors/too_many_large_calls), [`too_many_jobs`](/docs/errors/too_many_jobs), [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`); until the key's large calls likely leave room (`too_many_large_calls`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`client_closed_request`](/docs/errors/client_closed_request). */
            499: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`processing_error`](/docs/errors/processing_error), [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_disabled`](/docs/errors/tool_disabled), [`server_busy`](/docs/errors/server_busy), [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    /** @description Seconds to wait: before the queue of large calls likely has room (`server_busy`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "callTool.webhook-payload-inspector": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a retry with the same key, tool and body gets the first answer (200 or 422) again, charged once; after a 500 it runs again. 1 to 255 visible ASCII characters, a UUID for example; kept for the account for TOOLRUN_IDEMPOTENCY_TTL_S seconds (a day by default). */
                "Idempotency-Key"?: string;
                /** @description `respond-async`: run the call as a job when its tool allows (answered 202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Raw Webhook Request
                     * @description The request as received: an optional request line (`POST /hook HTTP/1.1`), header lines (`Name: value`), a blank line, then the body (JSON, form-encoded, or anything else). A payload that starts with `{` or `[` is all body.
                     */
                    payload: string;
                    /**
                     * Signing Secret
                     * @description Optional. The secret the sender signs with (for public-key schemes, the public key); the detected provider's signature is then checked over the raw body. Never stored or echoed.
                     */
                    secret?: string;
                };
            };
        };
        responses: {
            /** @description The tool ran. */
            200: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        tool: "webhook-payload-inspector";
                        tool_version: string;
                        /** Webhook Payload Inspector outputs */
                        outputs: {
                            /** @description Summary rows, always all twelve, in this order; `—` where a row does not apply. */
                            overview: [
                                {
                                    /** @constant */
                                    property: "Request Line";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Format";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Content-Type";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Body Size";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Characters";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Header Count";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Valid JSON";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Depth";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Total Keys";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Provider";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Event Type";
                                    value: string;
                                },
                                {
                                    /** @constant */
                                    property: "Timestamps Found";
                                    value: string;
                                }
                            ];
                            /** @description Every parsed header in the order given; names as written, values trimmed. */
                            headers: {
                                header: string;
                                value: string;
                            }[];
                            /** @description Headers that identify the sender, the event, the delivery or a signature, with what they mean. */
                            signals: {
                                header: string;
                                value: string;
                                meaning: string;
                            }[];
                            /** @description Timestamp-like values found in the body (at most 1000 rows), in document order. */
                            timestamps: {
                                field: string;
                                "raw-value": string;
                                utc: string;
                                unix: number;
                                /** @enum {unknown} */
                                kind: "iso8601" | "iso8601-no-zone" | "epoch-seconds" | "epoch-milliseconds";
                            }[];
                            /** @description The body pretty-printed with two-space indentation when it is valid JSON (numbers kept exactly as sent); a form body as a JSON object of its decoded fields; otherwise the body as given. */
                            formatted: string;
                            values: {
                                requestLine: string | null;
                                method: string | null;
                                target: string | null;
                                httpVersion: string | null;
                                /** @enum {unknown} */
                                format: "json" | "form" | "xml" | "text" | "multipart" | "empty";
                                contentType: string | null;
                                bodyBytes: number;
                                characters: number;
                                headerCount: number;
                                validJson: boolean | null;
                                /** @description Form bodies only: each field whose decoded value opens with `{` or `[`, whether it is valid JSON, and its depth and key count. */
                                jsonFields: {
                                    field: string;
                                    valid: boolean;
                                    depth: number | null;
                                    totalKeys: number | null;
                                }[] | null;
                                jsonError: string | null;
                                depth: number | null;
                                totalKeys: number | null;
                                providerId: string | null;
                                providerName: string | null;
                                eventType: string | null;
                                timestampsFound: number;
                                timestampsTotal: number;
                            };
                            verification: {
                                scheme: string | null;
                                header: string | null;
                                /**
                                 * @description `expired`: the signature matches, but its signed timestamp is outside the provider's window (a stale capture or a replay), which the provider's own check rejects; `invalid`: it does not match, or is malformed, or the secret cannot be the scheme's key.
                                 * @enum {unknown}
                                 */
                                status: "valid" | "expired" | "invalid" | "unverifiable" | "not_requested";
                                reason: string;
                                /** @description When an HMAC or hash signature does not match: the signature this secret gives over the body as sent, written as the header writes it (`sha256=<hex>`, `v1=<hex>`, `v1,<base64>`), to compare with your own code's. */
                                expected?: string;
                                /** @description Beside `expected`: the request's (first) signature, written the same way. */
                                received?: string;
                                /** @description When a JSON body's signature does not match and the body looks re-serialized: the same JSON written another way (pretty-printed, compact) matches; or the sender sends indented JSON and this body is on one line; or its keys are in alphabetical order. */
                                hint?: string;
                                /** @description The secret does not have the provider's shape (Stripe's endpoint secrets start with `whsec_`). A warning only: the check is made with it as given. */
                                secretWarning?: string;
                            };
                            /** @description What the inspector ignored or assumed while reading the payload. */
                            notes: string[];
                        };
                        credits_used: number;
                        credits_remaining: number | null;
                        request_id?: string;
                    };
                };
            };
            /** @description A problem: [`validation_error`](/docs/errors/validation_error), [`malformed_request`](/docs/errors/malformed_request). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`invalid_api_key`](/docs/errors/invalid_api_key). */
            401: {
                headers: {
                    /** @description Always `Bearer realm="toolrun"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`insufficient_credits`](/docs/errors/insufficient_credits), [`vendor_api_tier_limit_exceeded`](/docs/errors/vendor_api_tier_limit_exceeded). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_allowed`](/docs/errors/tool_not_allowed), [`key_read_only`](/docs/errors/key_read_only). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_not_found`](/docs/errors/tool_not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_timeout`](/docs/errors/request_timeout). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`idempotency_key_in_use`](/docs/errors/idempotency_key_in_use). */
            409: {
                headers: {
                    /** @description Always 1: retry in a second. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`payload_too_large`](/docs/errors/payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`expectation_failed`](/docs/errors/expectation_failed). */
            417: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`unprocessable_input`](/docs/errors/unprocessable_input), [`idempotency_key_mismatch`](/docs/errors/idempotency_key_mismatch). */
            422: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`too_many_large_calls`](/docs/errors/too_many_large_calls), [`too_many_jobs`](/docs/errors/too_many_jobs), [`rate_limited`](/docs/errors/rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait: until the window ends (`rate_limited`); until the key's large calls likely leave room (`too_many_large_calls`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`request_header_fields_too_large`](/docs/errors/request_header_fields_too_large). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`client_closed_request`](/docs/errors/client_closed_request). */
            499: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`processing_error`](/docs/errors/processing_error), [`internal_error`](/docs/errors/internal_error). */
            500: {
                headers: {
                    /** @description `true` when the answer is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A problem: [`tool_disabled`](/docs/errors/tool_disabled), [`server_busy`](/docs/errors/server_busy), [`api_unconfigured`](/docs/errors/api_unconfigured), [`backend_unavailable`](/docs/errors/backend_unavailable), [`shutting_down`](/docs/errors/shutting_down). */
            503: {
                headers: {
                    /** @description Seconds to wait: before the queue of large calls likely has room (`server_busy`). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
