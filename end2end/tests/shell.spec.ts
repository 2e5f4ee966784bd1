import { expect, test, type Page } from "@playwright/test";

/** Fails the test on any console error or uncaught page error (a CSP
 * violation, a WASM that did not load, a hydration panic). */
function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function hydrated(page: Page) {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

test("home page renders with the layout's landmarks", async ({ page }) => {
  const errors = watchForErrors(page);
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Tally");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Know what is due");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("Tally");
  await hydrated(page);
  expect(errors).toEqual([]);
});

test("hydration makes the yearly cost calculator respond", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto("/");
  const answer = page.getByTestId("yearly");
  // Rendered by the server before any script runs.
  await expect(answer).toHaveText("$191.88");
  await hydrated(page);

  const price = page.getByLabel("Monthly price (USD)");
  await price.fill("9.99");
  await expect(answer).toHaveText("$119.88");
  await price.fill("12.345");
  await expect(page.locator(".yearly-cost__answer")).toContainText("at most two digits");
  await price.fill("1,000");
  await expect(answer).toHaveText("$12,000.00");
  expect(errors).toEqual([]);
});

test("the skip link moves focus to the main content", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("an unknown address shows the not-found page with status 404", async ({ page }) => {
  const errors = watchForErrors(page);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · Tally");
  await hydrated(page);
  await page.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Know what is due");
  // Leptos logs nothing else; the 404 document itself is not an error here.
  expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
});

test("screenshots of the home page, wide and narrow", async ({ page }, testInfo) => {
  await page.goto("/");
  await hydrated(page);
  for (const [name, width] of [
    ["home-desktop", 1280],
    ["home-mobile", 390],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const path = testInfo.outputPath(`${name}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(name, { path, contentType: "image/png" });
  }
});
