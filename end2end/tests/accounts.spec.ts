import { expect, test, type Page } from "@playwright/test";

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
