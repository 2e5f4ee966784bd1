import { expect, test } from "@playwright/test";
import path from "node:path";
import { addMonthlyBill, hydrated, newUser, openRegistration } from "./support";

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
