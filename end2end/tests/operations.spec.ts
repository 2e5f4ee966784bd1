import { Browser, expect, Page, test } from "@playwright/test";
import { ADMIN, PASSWORD } from "./support";

async function hydrated(page: Page) {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

/** The CSRF token of the page's browser context (bound to its session once signed in). */
async function csrfOf(page: Page): Promise<string> {
  return (await (await page.request.get("/api/auth/csrf-token")).json()).csrfToken;
}

/** Signs the page's browser context in through the API; returns the CSRF
 * token of the new session (signing in changes it). */
async function signInAsAdmin(page: Page): Promise<string> {
  const login = await page.request.post("/api/auth/login", {
    headers: { "x-csrf-token": await csrfOf(page) },
    data: { email: ADMIN, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  return csrfOf(page);
}

// One signed-in page for the whole file: every sign-in counts against the
// admin account's sign-in budget, which the other specs use too.
test.describe.configure({ mode: "serial" });
let page: Page;
let csrf: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await browser.newPage();
  csrf = await signInAsAdmin(page);
});

test.afterAll(async () => {
  await page.close();
});

test("an admin takes a backup from Admin, watches it finish, and finds it in the viewer", async ({}, testInfo) => {
  await page.goto("/admin/backups");
  await hydrated(page);
  await page.getByRole("button", { name: "Take a backup" }).click();
  const card = page.getByTestId("live-operation").first();
  await expect(card).toContainText("Backup");
  await expect(card.locator(".op-state")).toHaveText("Succeeded");
  await expect(card.getByRole("progressbar")).toHaveAttribute("value", "100");
  await expect(card).toContainText(/bills-.*\.db \(\d+ rows in \d+ tables\)/);
  await page.screenshot({ path: testInfo.outputPath("admin-backup.png"), fullPage: true });

  await card.getByRole("link", { name: "All operations" }).click();
  await expect(page).toHaveURL(/\/operations$/);
  const backup = page.locator('[data-testid="operation-row"][data-kind="backup"]').first();
  await expect(backup.locator(".op-state")).toHaveText("Succeeded");
  await expect(backup.getByRole("progressbar")).toHaveAttribute("value", "100");
  // The admin's own operation says so in words, not as "users/1".
  await expect(backup.locator("td").nth(2)).toHaveText("You");
  await backup.getByText("Details").click();
  await expect(backup.locator(".op-details")).toContainText("type.googleapis.com/tally.v1.BackupResponse");
});

test("a long diagnostics operation runs with live progress, is cancelled and ends CANCELLED", async ({}, testInfo) => {
  const started = await page.request.post("/v1/diagnostics:sleep", {
    headers: { "x-csrf-token": csrf },
    data: { duration: "120s" },
  });
  expect(started.status()).toBe(200);
  const name = (await started.json()).name as string;

  await page.goto("/operations");
  await hydrated(page);
  await page.getByLabel("State").selectOption("running");
  await page.getByLabel("Kind").selectOption("sleep");
  const rows = page.getByTestId("operation-row");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row.locator(".op-state")).toHaveText("Running");
  // The bar moves while the page is open.
  await expect
    .poll(async () => Number(await row.getByRole("progressbar").getAttribute("value")), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath("operations-running.png"), fullPage: true });

  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.locator(".op-state")).toHaveText("Cancelled");
  await expect(row).toContainText("CANCELLED");
  await page.screenshot({ path: testInfo.outputPath("operations-cancelled.png"), fullPage: true });

  const operation = await (await page.request.get(`/v1/${name}`)).json();
  expect(operation.done).toBe(true);
  expect(operation.error.code).toBe(1);

  // Finished now: it is gone from the "running" filter (which the address
  // keeps), and deleting forgets it.
  await expect(page).toHaveURL(/\/operations\?state=running&kind=sleep$/);
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel("State")).toHaveValue("running");
  await expect(rows).toHaveCount(0);
  await page.getByLabel("State").selectOption("");
  await expect(page).toHaveURL(/\/operations\?kind=sleep$/);
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("button", { name: "Delete" }).click();
  await expect(rows).toHaveCount(0);
  expect((await page.request.get(`/v1/${name}`)).status()).toBe(404);
});
