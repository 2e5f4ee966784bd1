import { expect, test, type Page } from "@playwright/test";
import { createHmac } from "node:crypto";

// The tests share the bootstrap admin: the second one turns TOTP on.
test.describe.configure({ mode: "serial" });

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as an authenticator app computes it. */
function totp(secretBase32: string, atSeconds = Date.now() / 1000): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of secretBase32.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atSeconds / 30)));
  const hmac = createHmac("sha1", Buffer.from(bytes)).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 15;
  return ((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, "0");
}

const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery staple";

async function hydrated(page: Page) {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

test("the bootstrap admin signs in, makes an API token and signs out", async ({ page, request }, testInfo) => {
  await page.goto("/login");
  await hydrated(page);

  // A mistake first: the error is announced and the form stays.
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").first()).toContainText("email or password is wrong");
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-email")).toHaveText(ADMIN);

  // The session cookie is HttpOnly: scripts cannot read it.
  const visible = await page.evaluate(() => document.cookie);
  expect(visible).not.toContain("tally_session");

  await page.getByLabel("Token name").fill("e2e script");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent()) ?? "";
  expect(token).toMatch(/^tally_pat_/);
  await expect(page.getByRole("listitem").filter({ hasText: "e2e script" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("profile.png"), fullPage: true });

  // The token works for a program, without cookies.
  const me = await request.get("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user.email).toBe(ADMIN);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/profile");
  await expect(page.getByText("You are signed out.")).toBeVisible();
});

test("TOTP enrolment, then signing in with a computed code", async ({ page }, testInfo) => {
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/profile$/);

  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.locator(".qr svg")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await page.screenshot({ path: testInfo.outputPath("totp-enrolment.png"), fullPage: true });
  const firstCode = totp(secret);
  await page.getByLabel("Code from the app").fill(firstCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();

  // The code that turned TOTP on is spent; the next step's code is accepted.
  await page.getByLabel("Code from your authenticator app").fill(firstCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").first()).toContainText("not right");
  await page.getByLabel("Code from your authenticator app").fill(totp(secret, Date.now() / 1000 + 30));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-email")).toHaveText(ADMIN);
});
