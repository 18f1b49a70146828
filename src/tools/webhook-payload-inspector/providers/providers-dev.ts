/**
 * Provider table, part 1: code forges, CI and hosting. Data only (see ./provider-types.ts).
 * Forgejo, Gitea and Gogs come before GitHub because they also send GitHub's header names.
 */
import { bodyHmac, STANDARD_WEBHOOKS, standardWebhooksSignals, tokenScheme } from "./provider-kit.ts";
import type { Provider, SignalSpec } from "./provider-types.ts";

/** The GitHub-style headers Gitea-family forges add for compatibility. */
const GITHUB_COMPAT_SIGNALS: SignalSpec[] = [
  ["X-GitHub-Event", "GitHub-compatible copy of the event name"],
  ["X-GitHub-Event-Type", "GitHub-compatible copy of the event type"],
  ["X-GitHub-Delivery", "GitHub-compatible copy of the delivery id"],
  ["X-Gogs-Event", "Gogs-compatible copy of the event name"],
  ["X-Gogs-Event-Type", "Gogs-compatible copy of the event type"],
  ["X-Gogs-Delivery", "Gogs-compatible copy of the delivery id"],
  ["X-Gogs-Signature", "Gogs-compatible copy of the signature (HMAC-SHA256 of the raw body, hex)"],
  ["X-Hub-Signature", "GitHub-compatible HMAC-SHA1 of the raw body, hex, `sha1=` prefix"],
  ["X-Hub-Signature-256", "GitHub-compatible HMAC-SHA256 of the raw body, hex, `sha256=` prefix"],
];

export const DEV_PROVIDERS: readonly Provider[] = [
  {
    id: "forgejo",
    name: "Forgejo",
    checkedAgainst:
      "https://codeberg.org/forgejo/forgejo/src/branch/forgejo/services/webhook/shared/payloader.go",
    detect: [{ anyHeader: ["X-Forgejo-Event", "X-Forgejo-Delivery", "X-Forgejo-Signature"] }],
    event: [{ header: "X-Forgejo-Event" }],
    signals: [
      ["X-Forgejo-Event", "Forgejo event name"],
      ["X-Forgejo-Event-Type", "Forgejo event type (finer than the event name)"],
      ["X-Forgejo-Delivery", "Forgejo delivery id (UUID)"],
      ["X-Forgejo-Signature", "HMAC-SHA256 of the raw body, hex, no prefix"],
      ["X-Gitea-Event", "Gitea-compatible copy of the event name"],
      ["X-Gitea-Event-Type", "Gitea-compatible copy of the event type"],
      ["X-Gitea-Delivery", "Gitea-compatible copy of the delivery id"],
      ["X-Gitea-Signature", "Gitea-compatible copy of the signature"],
      ...GITHUB_COMPAT_SIGNALS,
    ],
    schemes: [
      {
        ...bodyHmac("forgejo-sha256", "X-Forgejo-Signature", "sha256", "hex"),
        signature: [{ header: "X-Forgejo-Signature" }, { header: "X-Gitea-Signature" }],
      },
    ],
  },
  {
    id: "gitea",
    name: "Gitea",
    checkedAgainst: "https://github.com/drone/go-scm/blob/master/scm/driver/gitea/webhook_test.go",
    detect: [{ anyHeader: ["X-Gitea-Event", "X-Gitea-Delivery", "X-Gitea-Signature"] }],
    event: [{ header: "X-Gitea-Event" }],
    signals: [
      ["X-Gitea-Event", "Gitea event name"],
      ["X-Gitea-Event-Type", "Gitea event type (finer than the event name)"],
      ["X-Gitea-Delivery", "Gitea delivery id (UUID)"],
      ["X-Gitea-Signature", "HMAC-SHA256 of the raw body, hex, no prefix"],
      ...GITHUB_COMPAT_SIGNALS,
    ],
    schemes: [bodyHmac("gitea-sha256", "X-Gitea-Signature", "sha256", "hex")],
  },
  {
    id: "gogs",
    name: "Gogs",
    checkedAgainst: "https://github.com/gogs/gogs/blob/main/internal/database/webhook.go",
    detect: [{ anyHeader: ["X-Gogs-Event", "X-Gogs-Delivery", "X-Gogs-Signature"] }],
    event: [{ header: "X-Gogs-Event" }],
    signals: [
      ["X-Gogs-Event", "Gogs event name"],
      ["X-Gogs-Delivery", "Gogs delivery id (UUID)"],
      [
        "X-Gogs-Signature",
        "HMAC-SHA256 of the JSON payload, hex, no prefix (for a form delivery, of its `payload` field)",
      ],
      ["X-GitHub-Event", "GitHub-compatible copy of the event name"],
      ["X-GitHub-Delivery", "GitHub-compatible copy of the delivery id"],
    ],
    schemes: [bodyHmac("gogs-sha256", "X-Gogs-Signature", "sha256", "hex")],
  },
  {
    id: "github",
    name: "GitHub",
    checkedAgainst: "https://docs.github.com/en/webhooks/webhook-events-and-payloads",
    detect: [
      { anyHeader: ["X-GitHub-Event", "X-GitHub-Delivery", "X-GitHub-Hook-ID"] },
      { userAgent: "GitHub-Hookshot/" },
    ],
    event: [{ header: "X-GitHub-Event" }],
    signals: [
      ["X-GitHub-Event", "GitHub event name"],
      ["X-GitHub-Delivery", "GitHub delivery id (GUID)"],
      ["X-GitHub-Hook-ID", "GitHub webhook id"],
      [
        "X-GitHub-Hook-Installation-Target-Type",
        "What the webhook is installed on (repository, organization, app...)",
      ],
      ["X-GitHub-Hook-Installation-Target-ID", "Id of the resource the webhook is installed on"],
      ["X-GitHub-Enterprise-Version", "GitHub Enterprise Server version that sent it"],
      ["X-GitHub-Enterprise-Host", "GitHub Enterprise Server host name that sent it"],
      ["X-Hub-Signature-256", "HMAC-SHA256 of the raw body, hex, `sha256=` prefix"],
      [
        "X-Hub-Signature",
        "HMAC-SHA1 of the raw body, hex, `sha1=` prefix (legacy; prefer X-Hub-Signature-256)",
      ],
    ],
    schemes: [
      bodyHmac("github-sha256", "X-Hub-Signature-256", "sha256", "hex", "sha256="),
      bodyHmac("github-sha1", "X-Hub-Signature", "sha1", "hex", "sha1="),
    ],
  },
  {
    id: "gitlab",
    name: "GitLab",
    checkedAgainst: "https://rubydoc.info/github/gitlabhq/gitlabhq/Gitlab/WebHooks",
    detect: [
      {
        anyHeader: [
          "X-Gitlab-Event",
          "X-Gitlab-Token",
          "X-Gitlab-Instance",
          "X-Gitlab-Event-UUID",
          "X-Gitlab-Webhook-UUID",
        ],
      },
    ],
    event: [{ header: "X-Gitlab-Event" }, { body: "object_kind" }],
    signals: [
      ["X-Gitlab-Event", "GitLab event name (e.g. Push Hook)"],
      ["X-Gitlab-Token", "The webhook's secret token, sent as is (compare it; it is not a signature)"],
      ["X-Gitlab-Instance", "Host name of the GitLab instance that sent it"],
      ["X-Gitlab-Webhook-UUID", "Unique id of this webhook request"],
      ["X-Gitlab-Event-UUID", "Id of the event that triggered the webhook"],
      ["Idempotency-Key", "The same on every retry of this delivery"],
      ...standardWebhooksSignals("webhook"),
    ],
    // A signing token (GitLab 18) signs like Standard Webhooks; otherwise the secret token is sent as is.
    schemes: [
      { ...STANDARD_WEBHOOKS, id: "gitlab-signing-token" },
      tokenScheme("gitlab-token", "X-Gitlab-Token", "The secret token itself, compared with the secret"),
    ],
  },
  {
    id: "bitbucket",
    name: "Bitbucket",
    checkedAgainst: "https://github.com/drone/go-scm/blob/master/scm/driver/stash/webhook_test.go",
    detect: [{ anyHeader: ["X-Event-Key"] }, { userAgent: "Bitbucket-Webhooks/" }],
    event: [{ header: "X-Event-Key" }],
    signals: [
      ["X-Event-Key", "Bitbucket event key (e.g. repo:push)"],
      ["X-Hook-UUID", "Webhook id (UUID)"],
      ["X-Request-UUID", "Delivery id (UUID, Bitbucket Cloud)"],
      ["X-Request-Id", "Delivery id (Bitbucket Data Center)"],
      ["X-Attempt-Number", "Delivery attempt number"],
      ["X-Hub-Signature", "HMAC-SHA256 of the raw body, hex, `sha256=` prefix"],
    ],
    schemes: [bodyHmac("bitbucket-sha256", "X-Hub-Signature", "sha256", "hex", "sha256=")],
  },
  {
    id: "azure-devops",
    name: "Azure DevOps",
    checkedAgainst: "https://learn.microsoft.com/en-us/azure/devops/service-hooks/services/webhooks",
    detect: [
      {
        body: [
          { path: "publisherId", exists: true },
          { path: "eventType", exists: true },
          { path: "resource", exists: true },
        ],
      },
    ],
    event: [{ body: "eventType" }],
    signals: [],
    schemes: [],
    unsigned:
      "Azure DevOps service hooks are not signed; protect the URL with Basic authentication or a secret header.",
  },
  {
    id: "circleci",
    name: "CircleCI",
    checkedAgainst: "https://circleci.com/docs/outbound-webhooks",
    detect: [
      { anyHeader: ["Circleci-Event-Type", "Circleci-Signature"] },
      { userAgent: "CircleCI-Webhook/" },
    ],
    event: [{ header: "Circleci-Event-Type" }, { body: "type" }],
    signals: [
      ["Circleci-Event-Type", "CircleCI event type (workflow-completed, job-completed)"],
      [
        "Circleci-Signature",
        "HMAC-SHA256 of the raw body, hex, as `v1=<hex>` (comma-separated when several)",
      ],
    ],
    schemes: [
      {
        ...bodyHmac("circleci-v1", "Circleci-Signature", "sha256", "hex"),
        label: "HMAC-SHA256 of the raw body, hex, as `v1=<hex>`",
        format: { type: "pairs", separator: ",", key: "v1" },
      },
    ],
  },
  {
    id: "travis-ci",
    name: "Travis CI",
    checkedAgainst: "https://docs.travis-ci.com/user/notifications/#verifying-webhook-requests",
    detect: [{ anyHeader: ["Travis-Repo-Slug"] }],
    event: [{ body: "payload.type" }],
    signals: [
      ["Travis-Repo-Slug", "Repository (owner/name) of the build"],
      [
        "Authorization",
        "Older check: SHA-256, hex, of the repository slug followed by your Travis CI user token",
      ],
      [
        "Signature",
        "RSA-SHA1 signature of the decoded `payload` field, base64; check it with Travis CI's public key",
      ],
    ],
    schemes: [
      {
        kind: "rsa-sha1",
        id: "travis-rsa-sha1",
        label: "RSA-SHA1 of the decoded `payload` form field, base64 (secret: Travis CI's public key, PEM)",
        signature: [{ header: "Signature" }],
        encoding: "base64",
        content: [{ from: { formField: "payload" } }],
      },
    ],
  },
  {
    id: "sentry",
    name: "Sentry",
    checkedAgainst: "https://docs.sentry.io/integrations/integration-platform/webhooks/",
    detect: [{ anyHeader: ["Sentry-Hook-Resource", "Sentry-Hook-Signature"] }],
    event: [{ header: "Sentry-Hook-Resource" }],
    signals: [
      [
        "Sentry-Hook-Resource",
        "Resource that triggered it (installation, issue, error, comment, event_alert, metric_alert)",
      ],
      ["Sentry-Hook-Timestamp", "Send time, epoch seconds", "epoch"],
      ["Sentry-Hook-Signature", "HMAC-SHA256 of the raw body with the integration's client secret, hex"],
      ["Request-ID", "Sentry request id, for support"],
    ],
    schemes: [bodyHmac("sentry-sha256", "Sentry-Hook-Signature", "sha256", "hex")],
  },
  {
    id: "vercel",
    name: "Vercel",
    detect: [{ anyHeader: ["x-vercel-signature"] }],
    event: [{ body: "type" }],
    signals: [["x-vercel-signature", "HMAC-SHA1 of the raw body with the webhook secret, hex"]],
    schemes: [bodyHmac("vercel-sha1", "x-vercel-signature", "sha1", "hex")],
  },
  {
    id: "netlify",
    name: "Netlify",
    detect: [
      {
        anyHeader: ["X-Webhook-Signature"],
        body: [
          { path: "site_id", exists: true },
          { path: "deploy_ssl_url", exists: true },
        ],
      },
      { userAgent: "Netlify" },
    ],
    event: [{ body: "state" }],
    signals: [
      [
        "X-Webhook-Signature",
        "JWT (HS256) signed with the webhook secret; its `sha256` claim is the hex SHA-256 of the raw body",
      ],
    ],
    schemes: [
      {
        kind: "jwt-sha256-claim",
        id: "netlify-jws",
        label: "JWT (HS256) with the webhook secret; claim `sha256` is the hex SHA-256 of the raw body",
        signature: [{ header: "X-Webhook-Signature" }],
      },
    ],
  },
  {
    id: "heroku",
    name: "Heroku",
    detect: [{ anyHeader: ["Heroku-Webhook-Hmac-SHA256", "Heroku-Webhook-Id"] }],
    event: [{ body: "webhook_metadata.event.include" }],
    signals: [
      ["Heroku-Webhook-Hmac-SHA256", "HMAC-SHA256 of the raw body with the webhook secret, base64"],
      ["Heroku-Webhook-Id", "Webhook delivery id"],
    ],
    schemes: [bodyHmac("heroku-sha256", "Heroku-Webhook-Hmac-SHA256", "sha256", "base64")],
  },
  {
    id: "docker-hub",
    name: "Docker Hub",
    checkedAgainst: "https://docs.docker.com/docker-hub/repos/manage/webhooks/",
    // `callback_url` is a legacy member Docker Hub no longer supports, so it cannot be required.
    detect: [
      {
        body: [
          { path: "callback_url", startsWith: "https://registry.hub.docker.com/" },
          { path: "push_data", exists: true },
        ],
      },
      {
        body: [
          { path: "push_data.pusher", exists: true },
          { path: "push_data.tag", exists: true },
          { path: "repository.repo_name", exists: true },
        ],
      },
    ],
    signals: [],
    schemes: [],
    unsigned: "Docker Hub webhooks are not signed; put a secret in the webhook URL and check it.",
  },
];
