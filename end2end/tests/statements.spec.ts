import { expect, test } from "@playwright/test";
import path from "node:path";
import { addMonthlyBill, hydrated, newUser, newUserWithoutJavaScript, openRegistration } from "./support";

// Issue 32: a bank statement file (made by ofxtools, see
// scripts/fixtures/make_statements.py) imported on the Data page: the
// preview first, then the commit; the next statement overlaps the first
// by a row (already here) and has a row the bank wrote wrong (refused,
// with its line).
const fixtures = path.join(__dirname, "..", "..", "server", "tests", "fixtures", "statements");

test("a person previews and imports two overlapping bank statements", async ({ browser }) => {
  await openRegistration(browser);
  const { page, context } = await newUser(browser, "statements@example.com");
  await addMonthlyBill(context, { name: "Streaming", amountMinor: 1_549, anchorDate: "2025-01-12" });
  await page.goto("/data");
  await hydrated(page);

  await page.getByLabel("Statement file").setInputFiles(path.join(fixtures, "checking.ofx"));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("statement-summary")).toHaveText(
    "4 rows from 2025-01-03 to 2025-01-15: 4 new, 0 already here, 0 refused.",
  );
  await expect(page.getByTestId("statement-rows").getByRole("row")).toHaveCount(5);
  // The import is in the address, so a reload keeps it.
  await expect(page).toHaveURL(/\/data\?statement=\d+$/);
  await page.getByRole("button", { name: "Import 4 new transactions" }).click();
  // The import's own card (the preview's stays above it).
  const imported = page.getByTestId("live-operation").filter({ hasText: "Statement import" });
  await expect(imported).toContainText("Succeeded");

  await page.getByLabel("Statement file").setInputFiles(path.join(fixtures, "checking-next.ofx"));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("statement-summary")).toContainText("1 new, 1 already here, 1 refused.");
  await expect(page.getByTestId("statement-refused")).toContainText("line");
  await page.getByRole("button", { name: "Import 1 new transaction" }).click();
  await expect(page.getByRole("link", { name: "See the transactions" })).toBeVisible();
  await expect(imported).toContainText("Succeeded");

  await page.goto("/data/transactions");
  await hydrated(page);
  await expect(page.getByText("NETFLIX.COM").first()).toBeVisible();
  await expect(page.getByText("OAK STREET RENT").first()).toBeVisible();

  // An imported transaction is matched to a bill like a synced one.
  const netflix = page.getByRole("row").filter({ hasText: "NETFLIX.COM" });
  await netflix.getByLabel("Bill paid by NETFLIX.COM").selectOption({ label: "Streaming" });
  await netflix.getByRole("button", { name: "Match", exact: true }).click();
  await expect(netflix).toContainText("Streaming");
  await expect(netflix.getByRole("button", { name: "Unmatch" })).toBeVisible();
});

// Hardening III, finding 4: a waiting preview can be discarded, so it no
// longer counts toward the five uploads a person may leave waiting.
test("a person discards a statement preview", async ({ browser }) => {
  await openRegistration(browser);
  const { page } = await newUser(browser, "statements-discard@example.com");
  await page.goto("/data");
  await hydrated(page);

  await page.getByLabel("Statement file").setInputFiles(path.join(fixtures, "checking.ofx"));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("statement-summary")).toContainText("4 new");
  await page.getByRole("button", { name: "Discard this preview" }).click();
  await expect(page.getByTestId("statement-discarded")).toHaveText("Preview discarded. Nothing was imported.");
  await expect(page).toHaveURL(/\/data\?form=statement-import-discarded$/);
  await expect(page.getByTestId("statement-summary")).toHaveCount(0);
  await expect(page.getByLabel("Statement file")).toBeVisible();
});

test("a file that is not a statement is refused saying so", async ({ browser }) => {
  await openRegistration(browser);
  const { page } = await newUser(browser, "not-a-statement@example.com");
  await page.goto("/data");
  await hydrated(page);
  await page.getByLabel("Statement file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("just some notes"),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("statement-error")).toContainText("not an OFX, QFX, QIF or CAMT.053 statement");
});

// Issue 33, point 5: the statement's form and "Import" are forms, and the
// import the card shows is in the address, so both work without
// JavaScript.
test("without JavaScript a statement is previewed, refused in words and imported", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUserWithoutJavaScript(browser, "statements-no-script@example.com");
  await page.goto("/data");

  await page.getByLabel("Statement file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("just some notes"),
  });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page).toHaveURL(/\/data\?.*__err=/);
  await expect(page.getByTestId("statement-error")).toContainText("not an OFX, QFX, QIF or CAMT.053 statement");

  await page.getByLabel("Statement file").setInputFiles(path.join(fixtures, "checking.ofx"));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page).toHaveURL(/\/data\?statement=\d+#statement-title$/);
  // The preview is an operation: until it has ended the card says so,
  // with a link to look again.
  const summary = page.getByTestId("statement-summary");
  await expect(async () => {
    if (!(await summary.isVisible())) {
      await page.getByRole("link", { name: "Look again" }).click();
    }
    await expect(summary).toHaveText("4 rows from 2025-01-03 to 2025-01-15: 4 new, 0 already here, 0 refused.", {
      timeout: 1_000,
    });
  }).toPass();
  await expect(page.getByTestId("statement-rows").getByRole("row")).toHaveCount(5);

  await page.getByRole("button", { name: "Import 4 new transactions" }).click();
  await expect(page).toHaveURL(/\/data\?statement=\d+&form=statement-import-started#statement-title$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("These transactions are imported")).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await page.getByRole("link", { name: "Transactions", exact: true }).first().click();
  await expect(page.getByText("OAK STREET RENT").first()).toBeVisible();
  await context.close();
});
