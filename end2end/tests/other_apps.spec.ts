import { expect, test } from "@playwright/test";
import path from "node:path";
import { hydrated, newUser, newUserWithoutJavaScript, openRegistration } from "./support";

// Issue 32: subscriptions exported by Wallos (tests/fixtures/other_apps,
// in Wallos's published format) imported on the Data page: the preview says
// what could not be brought over, then the bills are there.
const fixtures = path.join(__dirname, "..", "..", "server", "tests", "fixtures", "other_apps");

test("a person brings their Wallos subscriptions over", async ({ browser }) => {
  await openRegistration(browser);
  const { page, context } = await newUser(browser, "wallos@example.com");
  await page.goto("/data");
  await hydrated(page);

  await page.getByLabel("Made by").selectOption("wallos");
  await page.getByLabel("CSV file").setInputFiles(path.join(fixtures, "wallos.json"));
  await expect(page.getByTestId("import-summary")).toHaveText("5 rows ready, 0 with problems.");
  await expect(page.getByTestId("import-not-mapped")).toContainText("Disney+: cancelled in Wallos on 2025-12-31");
  await page.getByRole("button", { name: "Import these bills" }).click();
  await expect(page.getByTestId("import-done")).toHaveText("Imported 5 bills.");
  await page.goto("/bills");
  await expect(page.getByTestId("bill-row")).toHaveCount(5);
  await expect(page.getByTestId("bill-row").filter({ hasText: "Amazon Prime" })).toContainText("€89.90");
  await context.close();
});

// Issue 33, point 5: the file goes up once and is kept for its import, the
// preview is the page at its address, so the import works without
// JavaScript.
test("without JavaScript a person checks a Wallos export and imports it", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUserWithoutJavaScript(browser, "wallos-no-script@example.com");
  await page.goto("/data");

  // Not a Wallos export: refused, saying why.
  await page.getByLabel("Made by").selectOption("wallos");
  await page.getByLabel("CSV file").setInputFiles({
    name: "wallos.json",
    mimeType: "application/json",
    buffer: Buffer.from('[{"Name": '),
  });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page).toHaveURL(/\/data\?.*__err=/);
  await expect(page.getByTestId("import-error")).toContainText("not Wallos's JSON export");

  await page.getByLabel("Made by").selectOption("wallos");
  await page.getByLabel("CSV file").setInputFiles(path.join(fixtures, "wallos.json"));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page).toHaveURL(/\/data\?bills=[0-9a-f]{32}#import-title$/);
  await expect(page.getByTestId("import-summary")).toHaveText("5 rows ready, 0 with problems.");
  await expect(page.getByTestId("import-not-mapped")).toContainText("Disney+: cancelled in Wallos on 2025-12-31");
  await page.getByRole("button", { name: "Import these bills" }).click();
  await expect(page).toHaveURL(/\/data\?form=bills-imported#import-title$/);
  await expect(page.getByTestId("import-done")).toHaveText("The bills were imported.");
  await page.goto("/bills");
  await expect(page.getByTestId("bill-row")).toHaveCount(5);
  await context.close();
});
