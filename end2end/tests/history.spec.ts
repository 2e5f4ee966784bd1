import { expect, test } from "@playwright/test";
import { addMonthlyBill, hydrated, newUser, newUserWithoutJavaScript, openRegistration } from "./support";

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
  // The workbook is kept; the address names it.
  await expect(second.page).toHaveURL(/\/data\?history=[0-9a-f]{32}$/);
  await second.page.getByRole("button", { name: "Preview", exact: true }).last().click();
  await expect(second.page.getByTestId("history-summary")).toHaveText("1 of 1 rows marked to import.");
  await expect(second.page).toHaveURL(/step=preview/);
  await hydrated(second.page);
  await expect(second.page.getByTestId("history-rows")).toContainText("Allotment rent");
  await expect(second.page.getByRole("checkbox", { name: "Import row 2" })).toBeChecked();
  await second.page.getByRole("button", { name: "Import the checked rows" }).click();
  await expect(second.page.getByTestId("history-done")).toHaveText("Imported 1 rows.");
  await second.page.goto("/bills");
  await expect(second.page.getByRole("link", { name: "Allotment rent" })).toBeVisible();
  await first.context.close();
  await second.context.close();
});

// Issue 33, point 5: every step is a form and an address, so the import
// works without JavaScript.
test("without JavaScript a person maps a workbook's sheet, previews it and imports the checked rows", async ({
  browser,
}) => {
  await openRegistration(browser);
  const first = await newUser(browser, "sheet-no-script-first@example.com");
  await addMonthlyBill(first.context, { name: "Piano lessons", amountMinor: 8_000, anchorDate: "2026-12-14" });
  const exported = await first.context.request.get("/api/data/export.xlsx");
  expect(exported.status()).toBe(200);
  const workbook = await exported.body();

  const { context, page } = await newUserWithoutJavaScript(browser, "sheet-no-script-second@example.com");
  await page.goto("/data");
  await page.getByLabel("Workbook", { exact: true }).setInputFiles({
    name: "notes.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.from("not a workbook"),
  });
  await page.getByRole("button", { name: "Read the workbook" }).click();
  await expect(page).toHaveURL(/\/data\?.*__err=/);
  await expect(page.getByTestId("history-error")).not.toBeEmpty();

  await page.getByLabel("Workbook", { exact: true }).setInputFiles({
    name: "tally.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: workbook,
  });
  await page.getByRole("button", { name: "Read the workbook" }).click();
  await expect(page).toHaveURL(/\/data\?history=[0-9a-f]{32}#history-title$/);
  await expect(page.getByLabel("Sheet", { exact: true })).toContainText("Bills (1 rows)");
  await expect(page.locator("#history-map-date option:checked")).toHaveText("anchor_date");
  await page.getByRole("button", { name: "Preview", exact: true }).last().click();
  await expect(page.getByTestId("history-summary")).toHaveText("1 of 1 rows marked to import.");
  await expect(page.getByRole("checkbox", { name: "Import row 2" })).toBeChecked();
  await page.getByRole("button", { name: "Import the checked rows" }).click();
  await expect(page).toHaveURL(/\/data\?form=history-imported#history-title$/);
  await expect(page.getByTestId("history-done")).toHaveText("The checked rows were imported.");
  await page.goto("/bills");
  await expect(page.getByRole("link", { name: "Piano lessons" })).toBeVisible();
  await first.context.close();
  await context.close();
});
