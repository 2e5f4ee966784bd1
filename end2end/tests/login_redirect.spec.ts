import { expect, test, type Page } from "@playwright/test";
import { ADMIN, PASSWORD } from "./support";

// Signing in follows `next` only to a page of this site (issue 13, finding 5).
test.describe.configure({ mode: "serial" });

async function signInAt(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

for (const next of ["/%5Cevil.example", "/%09/evil.example", "%2F%2Fevil.example", "https%3A%2F%2Fevil.example"]) {
  test(`a hostile next (${next}) lands on the Tracker of this site`, async ({ page, baseURL }) => {
    await signInAt(page, `/login?next=${next}`);
    await expect(page).toHaveURL(`${baseURL}/tracker`);
  });
}

test("a next of this site is followed", async ({ page, baseURL }) => {
  await signInAt(page, "/login?next=%2Fbills");
  await expect(page).toHaveURL(`${baseURL}/bills`);
});
