import { expect, test, type Page } from "@playwright/test";
import { ADMIN, PASSWORD, USER_PASSWORD, newUser, openRegistration } from "./support";

// Issue 28, item 12: every form that carries a secret is a POST form, so
// with JavaScript off (or submitted before the page hydrated) no field
// lands in the address, the history or the next page's Referer. Signing
// in works without JavaScript altogether.

/** The address carries none of the typed values, and no query at all
 * beyond what the page itself put there. */
function expectClean(page: Page, secrets: string[]) {
  const url = decodeURIComponent(page.url());
  for (const secret of secrets) {
    expect(url).not.toContain(secret);
  }
  expect(url).not.toMatch(/[?&](email|password|currentPassword|newPassword|name|code)=/);
}

test("signing in works without JavaScript and the password never reaches the address", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login?next=%2Fbills");
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill("a wrong guess 123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\?error=credentials/);
  await expect(page.getByRole("alert")).toContainText("Email or password is wrong.");
  expectClean(page, ["a wrong guess 123"]);

  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/bills$/);
  expectClean(page, [PASSWORD]);
  await context.close();
});

test("registration, password change and token creation never put a secret in the address", async ({ browser }) => {
  await openRegistration(browser);
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const register = await plain.newPage();
  await register.goto("/register");
  // Joining needs JavaScript: without it the page says so and offers no
  // form a password could be typed into (with it, the form is a POST).
  await expect(register.getByRole("heading", { name: "Create your Tally account" })).toBeVisible();
  await expect(register.locator("input[type=password]")).toHaveCount(0);
  await plain.close();

  const { context } = await newUser(browser, "no-script-forms@example.com");
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
  const page = await noScript.newPage();
  await page.goto("/profile");
  await page.getByLabel("Current password", { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel("New password").fill("another secret passphrase 2");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.waitForLoadState();
  expectClean(page, [USER_PASSWORD, "another secret passphrase 2"]);

  await page.goto("/profile");
  await page.getByLabel("Token name").fill("a token name");
  await page.getByRole("button", { name: "Create token" }).click();
  await page.waitForLoadState();
  expectClean(page, ["a token name"]);
  await noScript.close();
  await context.close();
});
