import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { PASSWORD, adminContext, csrf, hydrated } from "./support";

// Admin → Backups as an administrator uses it: take a backup and watch it
// finish, download it, check it, then restore it (typing its name) and see
// the bill added after it gone; Admin → Status shows the backup.
test("an admin takes a backup, downloads it and restores it from Admin → Backups", async ({ browser }, testInfo) => {
  const context = await adminContext(browser, { acceptDownloads: true });
  const token = await csrf(context);
  const addBill = async (name: string) => {
    const added = await context.request.post("/api/bills", {
      headers: { "x-csrf-token": token },
      data: { name, amountMinor: 1500, cadence: "monthly", dueDay: 9, anchorDate: "2026-01-09" },
    });
    expect(added.status(), await added.text()).toBe(201);
  };
  await addBill("Kept by the backup");

  const page = await context.newPage();
  await page.goto("/admin/backups");
  await hydrated(page);
  await page.getByRole("button", { name: "Take a backup" }).click();
  const card = page.getByTestId("live-operation").first();
  await expect(card.locator(".op-state")).toHaveText("Succeeded");
  const name = (await card.textContent())!.match(/bills-[^ ]+\.db/)![0];

  // The list reloads once the backup is done.
  const row = page.getByTestId("backup-files").locator("tr", { hasText: name });
  await expect(row).toContainText(/\d+(\.\d)? (B|kB|MB)/);
  await expect(row).toContainText(" ago)");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(name);
  const file = testInfo.outputPath(name);
  await download.saveAs(file);
  expect(readFileSync(file).subarray(0, 16).toString("latin1")).toBe("SQLite format 3\u0000");

  await row.getByRole("button", { name: "Check" }).click();
  const check = page.getByTestId("live-operation").first();
  await expect(check).toContainText("Restore check");
  await expect(check.locator(".op-state")).toHaveText("Succeeded");
  await expect(check).toContainText(`${name} restores`);

  await addBill("Added after the backup");
  await row.getByRole("button", { name: "Restore…" }).click();
  const restore = page.getByRole("button", { name: "Restore this backup" });
  await expect(restore).toBeDisabled();
  await page.getByLabel(`Type ${name} to confirm`).fill(name);
  await page.getByLabel("Your password").fill(PASSWORD);
  await expect(restore).toBeEnabled();
  await restore.click();
  const restored = page.getByTestId("live-operation").first();
  await expect(restored).toContainText("Restore");
  await expect(restored.locator(".op-state")).toHaveText("Succeeded");
  await expect(restored).toContainText(`restored ${name}`);
  await page.screenshot({ path: testInfo.outputPath("admin-backups.png"), fullPage: true });

  await page.goto("/bills");
  await hydrated(page);
  await expect(page.getByText("Kept by the backup").first()).toBeVisible();
  await expect(page.getByText("Added after the backup")).toHaveCount(0);

  await page.goto("/admin/status");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Status", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Backups" })).toBeVisible();
  await expect(page.locator("main")).toContainText("bills-");
  await expect(page.locator("main")).toContainText("Recent errors");
  // The suite's server runs at localhost: a phone could not open its links.
  const address = page.locator("dt", { hasText: "Public address" }).locator("xpath=following-sibling::dd[1]");
  await expect(address).toContainText("only this computer can open the links Tally sends");
  await expect(address).toHaveClass(/status--warn/);
  await page.getByRole("button", { name: "Re-encrypt secrets" }).click();
  const sealed = page.getByTestId("live-operation").first();
  await expect(sealed.locator(".op-state")).toHaveText("Succeeded");
  await context.close();
});
