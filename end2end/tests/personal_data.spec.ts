import { expect, test } from "@playwright/test";
import { addMonthlyBill, hydrated, newUser, newUserWithoutJavaScript, openRegistration } from "./support";

// Issue 32, "your data, whole": one person downloads their data as a
// SQLite file on the Data page and another account imports it there.
test("a person's data downloaded as one file imports into another account", async ({ browser }) => {
  await openRegistration(browser);
  const first = await newUser(browser, "whole-first@example.com");
  await addMonthlyBill(first.context, { name: "Climbing gym", amountMinor: 4_500, anchorDate: "2026-12-05" });
  await first.page.goto("/data");
  await hydrated(first.page);
  const [download] = await Promise.all([
    first.page.waitForEvent("download"),
    first.page.getByRole("link", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tally-export-\d{4}-\d{2}-\d{2}\.sqlite$/);
  const file = await download.path();

  const second = await newUser(browser, "whole-second@example.com");
  await second.page.goto("/data");
  await hydrated(second.page);
  await second.page.getByLabel("Import my data").setInputFiles(file);
  await second.page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(second.page.getByTestId("whole-done")).toContainText("Added 1 bill, 0 payments");
  await second.page.goto("/bills");
  await expect(second.page.getByRole("link", { name: "Climbing gym" })).toBeVisible();

  // A CSV is not an export: refused in words.
  await second.page.goto("/data");
  await hydrated(second.page);
  await second.page.getByLabel("Import my data").setInputFiles({
    name: "bills.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,amount\nRent,1200\n"),
  });
  await second.page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(second.page.getByTestId("whole-error")).toContainText("not a SQLite database");
  await first.context.close();
  await second.context.close();
});

// Issue 33, point 5: the import is a form, so it works without JavaScript.
test("without JavaScript the Data page imports a person's data and names a wrong file", async ({ browser }) => {
  await openRegistration(browser);
  const first = await newUser(browser, "whole-no-script-first@example.com");
  await addMonthlyBill(first.context, { name: "Pottery class", amountMinor: 6_000, anchorDate: "2026-12-09" });
  const exported = await first.context.request.get("/api/data/export.sqlite");
  expect(exported.status()).toBe(200);
  const file = await exported.body();

  const { context, page } = await newUserWithoutJavaScript(browser, "whole-no-script-second@example.com");
  await page.goto("/data");
  await page.getByLabel("Import my data").setInputFiles({
    name: "bills.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,amount\nRent,1200\n"),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/data\?.*__err=/);
  await expect(page.getByTestId("whole-error")).toContainText("not a SQLite database");

  await page.getByLabel("Import my data").setInputFiles({
    name: "my-data.sqlite",
    mimeType: "application/vnd.sqlite3",
    buffer: file,
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/data\?form=personal-data-imported$/);
  await expect(page.getByTestId("whole-done")).toContainText("Your data was added to this account");
  await page.goto("/bills");
  await expect(page.getByRole("link", { name: "Pottery class" })).toBeVisible();
  await first.context.close();
  await context.close();
});
