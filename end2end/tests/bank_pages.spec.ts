import { expect, test } from "@playwright/test";
import { adminContext, csrf, hydrated, newUser, openRegistration } from "./support";

// The pages around bank sync, with the demo bank: the Tracker's bank bar,
// the Transactions page (search, a suggestion applied by the person), the
// autopay record on a bill, and Admin → Bank Sync.
test("transactions are searched, a suggestion is applied by hand, and the Tracker shows the bank", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "suggested@example.com");
  const headers = { "x-csrf-token": await csrf(context) };
  const connected = await context.request.post("/api/bank/connections", { headers, data: { setupToken: "demo" } });
  expect(connected.status(), await connected.text()).toBe(201);
  const { operation } = await connected.json();
  const waited = await context.request.post(`/v1/${operation.name}:wait`, { headers, data: { timeout: "20s" } });
  expect((await waited.json()).done).toBe(true);
  for (const bill of [
    { name: "Netflix", amountMinor: 1549, cadence: "monthly", dueDay: 5, anchorDate: "2026-01-05" },
    { name: "Power", amountMinor: 8420, cadence: "monthly", dueDay: 12, anchorDate: "2026-01-12", autopay: true },
  ]) {
    const added = await context.request.post("/api/bills", { headers, data: bill });
    expect(added.status(), await added.text()).toBe(201);
  }

  // The Tracker: each monitored account and what is left after the bills.
  await page.goto("/tracker");
  const bar = page.getByTestId("bank-bar");
  await expect(bar).toContainText("Demo Checking");
  await expect(bar).toContainText("Left after bills still due");

  // Transactions: the Netflix debit comes with a suggestion and its reasons.
  await page.goto("/data/transactions");
  await hydrated(page);
  await expect(page.locator('[data-testid="transactions"][data-live="true"]')).toBeAttached();
  const row = page.getByTestId("transactions").locator("tr", { hasText: "NETFLIX.COM" }).first();
  await expect(row).toContainText("the amount equals the bill's");
  await row.getByRole("button", { name: "Match to Netflix" }).click();
  await expect(row.getByRole("button", { name: "Unmatch" })).toBeVisible();

  // Search narrows the list (a plain GET: the address keeps it).
  await page.getByLabel("Search").fill("spotify");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=spotify/);
  const found = page.getByTestId("transactions").locator("tbody tr");
  await expect(found.first()).toContainText("SPOTIFY");
  for (const text of await found.allTextContents()) expect(text).toContain("SPOTIFY");

  // The power debit matched: the bill shows its autopay record.
  const listed = await (await context.request.get("/api/bank/transactions?q=CITY%20POWER&pageSize=5")).json();
  const bills = await (await context.request.get("/api/bills")).json();
  const power = bills.bills.find((b: { name: string }) => b.name === "Power");
  const matched = await context.request.post(`/api/bank/transactions/${listed.transactions[0].id}/match`, {
    headers,
    data: { billId: power.id },
  });
  expect(matched.status(), await matched.text()).toBe(200);
  await page.goto(`/bills/${power.id}`);
  await expect(page.getByTestId("autopay-trust")).toContainText(/✓ \d+\/\d+/);
  await context.close();
});

test("an administrator sees and sets bank sync in Admin → Bank Sync", async ({ browser }) => {
  const context = await adminContext(browser);
  const page = await context.newPage();
  await page.goto("/admin");
  await hydrated(page);
  await page.getByRole("link", { name: "Bank Sync", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Bank sync", level: 1 })).toBeVisible();
  const worker = page.getByTestId("bank-worker");
  await expect(worker).toContainText("44 days");
  await expect(worker).toContainText("keeps 45 days");
  await expect(worker).toContainText(/TOKEN_ENCRYPTION_KEY|database key/);
  await hydrated(page);
  await page.getByLabel("Automatic sync every (hours)").fill("6");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const status = await (await context.request.get("/api/admin/bank-sync")).json();
  expect(status.intervalHours).toBe(6);
  await context.close();
});
