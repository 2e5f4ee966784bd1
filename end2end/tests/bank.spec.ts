import { expect, test } from "@playwright/test";
import { csrf, hydrated, newUser, openRegistration } from "./support";

// Data → Bank Sync with the built-in demo bank: connect, watch the seed sync
// finish, see the accounts with their balances and the latest transactions,
// sync again without anything appearing twice, then match the power
// company's debit to the autopay bill: the bill is paid and its autopay
// verified.
test("a person connects the demo bank, syncs, and sees accounts and transactions", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "banker@example.com");
  await page.goto("/data");
  await hydrated(page);
  await page.getByRole("link", { name: "Bank sync" }).click();
  await expect(page.getByRole("heading", { name: "Bank sync", level: 1 })).toBeVisible();
  await expect(page.getByText("the last 44 days")).toBeVisible();
  await expect(page.getByText("keeps 45 days")).toBeVisible();

  await page.getByRole("button", { name: "Connect the demo bank" }).click();
  const progress = page.getByTestId("bank-sync-progress");
  await expect(progress).toContainText("Bank sync");
  await expect(progress).toContainText("new transactions", { timeout: 20_000 });

  const connection = page.getByTestId("bank-connection");
  await expect(connection).toContainText("Demo Bank (not a real bank)");
  await expect(connection.getByTestId("bank-accounts")).toContainText("Demo Checking");
  await expect(connection.getByTestId("bank-accounts")).toContainText("$3,120.55");
  const transactions = page.getByTestId("bank-transactions");
  await expect(transactions).toContainText("BLUE BOTTLE COFFEE");
  await expect(transactions).toContainText("(pending)");
  const rows = await transactions.locator("tbody tr").count();

  // Sync now: the same history, nothing twice.
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(progress).toContainText("0 new transactions", { timeout: 20_000 });
  await expect(page.getByTestId("bank-transactions").locator("tbody tr")).toHaveCount(rows);

  // Match the power company's debit to the autopay bill.
  const added = await context.request.post("/api/bills", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { name: "Power", amountMinor: 8420, cadence: "monthly", dueDay: 12, anchorDate: "2026-01-12", autopay: true },
  });
  expect(added.status(), await added.text()).toBe(201);
  const power = await added.json();
  await page.reload();
  await hydrated(page);
  // The rows answer clicks once that part of the page is live.
  await expect(page.locator('[data-testid="bank-transactions"][data-live="true"]')).toBeAttached();
  const row = page.getByTestId("bank-transactions").locator("tr", { hasText: "CITY POWER & LIGHT AUTOPAY" }).first();
  await row.getByRole("button", { name: "Match" }).click();
  await expect(row.getByRole("button", { name: "Unmatch" })).toBeVisible();
  await expect(row.getByRole("combobox")).toHaveCount(0);
  await page.goto(`/bills/${power.id}`);
  await expect(page.getByTestId("bill-facts")).toContainText("on, verified");
  // Paid: the debit's payment, recorded from the bank, is the bill's.
  const paid = page.getByTestId("payments").getByTestId("payment-row");
  await expect(paid).toHaveCount(1);
  await expect(paid).toContainText("$84.20");
  await expect(paid).toContainText("bank");

  // Reconnecting with a new setup token carries the history on: nothing
  // is fetched twice.
  await page.goto("/data/bank");
  await hydrated(page);
  await page.getByText("Reconnect with a new setup token").click();
  await page.getByLabel("New setup token").fill("demo");
  await page.getByRole("button", { name: "Reconnect" }).click();
  await expect(page.getByTestId("bank-sync-progress")).toContainText("0 new transactions", { timeout: 20_000 });
  await expect(page.getByTestId("bank-connection")).toHaveCount(1);

  // Without JavaScript the page still arrives with the accounts.
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
  const plain = await noScript.newPage();
  await plain.goto("/data/bank");
  await expect(plain.getByTestId("bank-accounts")).toContainText("Demo Credit Card");
  await noScript.close();
  await context.close();
});
