import { expect, test } from "@playwright/test";
import { addMonthlyBill, hydrated, newUser, openRegistration } from "./support";

// Issue 32: history from a spreadsheet. One person's Excel export (a real
// .xlsx as Tally writes it) is read by another as a workbook of their own:
// its Bills sheet mapped, previewed row by row, imported.
test("a person imports bills from a spreadsheet through a column mapping", async ({ browser }) => {
  await openRegistration(browser);
  const first = await newUser(browser, "sheet-first@example.com");
  await addMonthlyBill(first.context, { name: "Allotment rent", amountMinor: 6_000, anchorDate: "2026-12-10" });
  await first.page.goto("/data");
  await hydrated(first.page);
  const [download] = await Promise.all([
    first.page.waitForEvent("download"),
    first.page.getByRole("link", { name: "Download everything (Excel)" }).click(),
  ]);
  const workbook = await download.path();

  const second = await newUser(browser, "sheet-second@example.com");
  await second.page.goto("/data");
  await hydrated(second.page);
  await second.page.getByLabel("Workbook", { exact: true }).setInputFiles(workbook);
  await expect(second.page.getByLabel("Sheet", { exact: true })).toContainText("Bills (1 rows)");
  // The columns are guessed from the headings; the date is the first due date.
  await expect(second.page.locator("#history-map-date option:checked")).toHaveText("anchor_date");
  await second.page.getByRole("button", { name: "Preview", exact: true }).last().click();
  await expect(second.page.getByTestId("history-summary")).toHaveText("1 of 1 rows marked to import.");
  await expect(second.page.getByTestId("history-rows")).toContainText("Allotment rent");
  await expect(second.page.getByRole("checkbox", { name: "Import row 2" })).toBeChecked();
  await second.page.getByRole("button", { name: "Import 1 row" }).click();
  await expect(second.page.getByTestId("history-done")).toHaveText("Imported 1 rows.");
  await second.page.goto("/bills");
  await expect(second.page.getByRole("link", { name: "Allotment rent" })).toBeVisible();
  await first.context.close();
  await second.context.close();
});
