import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// The config is evaluated in the runner and again in each worker; values
// chosen here are put in the environment so the workers inherit the runner's.
const freePort = () =>
  execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
process.env.E2E_PORT ??= freePort();
process.env.E2E_CAPTCHA_PORT ??= freePort();
process.env.FAKE_CAPTCHA_PORT ??= freePort();
process.env.E2E_SSO_PORT ??= freePort();
process.env.E2E_OIDC_PORT ??= freePort();
process.env.E2E_DATA ??= mkdtempSync(join(tmpdir(), "tally-e2e-"));

const port = process.env.E2E_PORT;
const captchaPort = process.env.E2E_CAPTCHA_PORT;
const fakeCaptcha = `http://127.0.0.1:${process.env.FAKE_CAPTCHA_PORT}`;
const ssoPort = process.env.E2E_SSO_PORT;
const oidcPort = process.env.E2E_OIDC_PORT;
// The identity provider of the single sign-on spec: a real one
// (oidc-provider) on loopback, see end2end/oidc/provider.mjs.
const oidcIssuer = `http://127.0.0.1:${oidcPort}`;
// Pages are opened at localhost, not 127.0.0.1: browsers allow WebAuthn
// only on a domain, and the server's default relying party is localhost.
const baseURL = `http://localhost:${port}`;
const root = resolve(__dirname, "..");

export default defineConfig({
  testDir: "./tests",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: [["list"], ["html", { open: "never" }]],
  outputDir: "test-results",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // The real release server (built by `cargo leptos build --release`) on a
  // free port with a temporary data directory; a second one with the bot
  // check on, against a local fake provider (end2end/fakes).
  webServer: [
    tallyServer(port, "plain", {
      // Every spec signs in from 127.0.0.1; the default of 10 a minute
      // would throttle the suite itself.
      SIGN_IN_ATTEMPTS_PER_MINUTE: "100",
      // The specs sign the bootstrap admin in more than ten times.
      SIGN_IN_ACCOUNT_BURST: "100",
      // The operations spec starts diagnostics sleeps.
      TALLY_DIAGNOSTICS: "1",
      // The bank spec connects the built-in demo bank.
      BANK_SYNC_ENABLED: "true",
      BANK_SYNC_DEMO: "true",
      BOOTSTRAP_ADMIN_EMAIL: "admin@example.com",
      BOOTSTRAP_ADMIN_PASSWORD: "correct horse battery staple",
      // The notifications spec's ntfy receiver listens on loopback.
      NOTIFY_ALLOW_HTTP: "true",
      OUTBOUND_ALLOWED_HOSTS: "127.0.0.1",
    }),
    {
      command: `${process.execPath} ${root}/end2end/fakes/captcha-provider.mjs`,
      url: `${fakeCaptcha}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    tallyServer(captchaPort, "captcha", {
      CAPTCHA_SITEVERIFY_URL: `${fakeCaptcha}/siteverify`,
      CAPTCHA_SECRET: "e2e-captcha-secret",
      CAPTCHA_SITE_KEY: "e2e-site-key",
      CAPTCHA_SCRIPT_URL: `${fakeCaptcha}/api.js?render=explicit`,
    }),
    {
      command: `${process.execPath} ${root}/end2end/oidc/provider.mjs ${oidcPort} http://localhost:${ssoPort}`,
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        OIDC_TEST_ACCOUNTS: JSON.stringify({
          pat: { email: "pat@example.com", email_verified: true, groups: ["family"] },
        }),
      },
    },
    tallyServer(ssoPort, "sso", {
      OIDC_ISSUER_URL: oidcIssuer,
      OIDC_CLIENT_ID: "tally",
      OIDC_CLIENT_SECRET: "tally-test-client-secret",
      OIDC_ALLOW_HTTP: "true",
      OIDC_AUTO_PROVISION: "true",
      OIDC_BUTTON_LABEL: "Sign in with the family account",
      OUTBOUND_ALLOWED_HOSTS: "127.0.0.1",
      // Admin → Authentication and linking from Profile.
      BOOTSTRAP_ADMIN_EMAIL: "admin@example.com",
      BOOTSTRAP_ADMIN_PASSWORD: "correct horse battery staple",
    }),
  ],
});

function tallyServer(port: string, name: string, env: Record<string, string>) {
  return {
    command: `${root}/target/server-release/tally serve`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_SITE_ROOT: `${root}/target/site`,
      DATA_DIR: join(process.env.E2E_DATA!, name, "data"),
      LOG_DIR: join(process.env.E2E_DATA!, name, "logs"),
      RUST_LOG: "info",
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      ...env,
    },
  };
}
