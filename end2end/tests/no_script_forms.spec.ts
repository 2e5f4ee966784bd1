import { expect, test, type Page } from "@playwright/test";
import { ADMIN, PASSWORD, USER_PASSWORD, openRegistration } from "./support";

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

test("registration, password change, token creation and the second factor work without JavaScript", async ({ browser }) => {
  await openRegistration(browser);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: "Create your Tally account" })).toBeVisible();
  await page.getByLabel("Email").fill("no-script-forms@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/register\?form=weak-password$/);
  await expect(page.getByRole("alert")).toContainText("too short or too easy to guess");
  expectClean(page, ["no-script-forms"]);

  await page.getByLabel("Email").fill("no-script-forms@example.com");
  await page.getByLabel("Password").fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  expectClean(page, [USER_PASSWORD]);

  await page.getByLabel("Current password", { exact: true }).fill("not my password at all");
  await page.getByLabel("New password").fill("another secret passphrase 2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/profile\?form=wrong-password$/);
  await expect(page.getByRole("alert").filter({ hasText: "current password is wrong" })).toBeVisible();
  await page.getByLabel("Current password", { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel("New password").fill("another secret passphrase 2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/profile\?form=password-changed$/);
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  expectClean(page, [USER_PASSWORD, "another secret passphrase 2"]);

  await page.getByLabel("Token name").fill("a token name");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("heading", { name: "Your new API token" })).toBeVisible();
  await expect(page.getByTestId("new-token")).not.toBeEmpty();
  expectClean(page, ["a token name"]);

  await page.getByRole("link", { name: "Back to your profile" }).click();
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeVisible();
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page).toHaveURL(/\/profile\?form=wrong-code$/);
  expectClean(page, ["000000"]);
  await context.close();
});
