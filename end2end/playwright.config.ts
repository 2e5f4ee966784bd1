import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// The config is evaluated in the runner and again in each worker; values
// chosen here are put in the environment so the workers inherit the runner's.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();
process.env.E2E_DATA ??= mkdtempSync(join(tmpdir(), "tally-e2e-"));

const port = process.env.E2E_PORT;
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
  // free port with a temporary data directory.
  webServer: {
    command: `${root}/target/server-release/tally serve`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_SITE_ROOT: `${root}/target/site`,
      DATA_DIR: join(process.env.E2E_DATA, "data"),
      LOG_DIR: join(process.env.E2E_DATA, "logs"),
      RUST_LOG: "info",
      PUBLIC_BASE_URL: baseURL,
      // Every spec signs in from 127.0.0.1; the default of 10 a minute
      // would throttle the suite itself.
      SIGN_IN_ATTEMPTS_PER_MINUTE: "100",
      BOOTSTRAP_ADMIN_EMAIL: "admin@example.com",
      BOOTSTRAP_ADMIN_PASSWORD: "correct horse battery staple",
    },
  },
});
