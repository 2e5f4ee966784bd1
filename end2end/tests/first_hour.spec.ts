import { expect, test } from "@playwright/test";
import { csrf, hydrated, newUser, openRegistration } from "./support";

// Issue 53, a person's first hour: an autopay record needs a payment behind
// it; "Overdue" is red only above zero; a bill without payments says so.
test("a new autopay bill claims no record, nothing is red, and an unpaid bill says it has no payments", async ({ browser }, testInfo) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "first-hour@example.com");
  const headers = { "x-csrf-token": await csrf(context) };
  const today = (await (await context.request.get("/api/bills")).json()).today as string;
  const dayOfMonth = Number(today.slice(8));

  const rent = await context.request.post("/api/bills", {
    headers,
    data: { name: "Rent", amountMinor: 150000, cadence: "monthly", dueDay: dayOfMonth, anchorDate: today, autopay: true },
  });
  expect(rent.status(), await rent.text()).toBe(201);
  const rentId = (await rent.json()).id as number;
  const water = await context.request.post("/api/bills", {
    headers,
    data: { name: "Water", amountMinor: 4200, cadence: "monthly", dueDay: dayOfMonth, anchorDate: today },
  });
  expect(water.status(), await water.text()).toBe(201);
  const waterId = (await water.json()).id as number;

  await page.goto("/tracker");
  await hydrated(page);
  const row = page.getByTestId("tracker-row").filter({ hasText: "Rent" });
  await expect(row).toHaveAttribute("data-status", "Due soon");
  await expect(page.getByTestId("total-overdue")).toHaveText("$0.00");
  await expect(page.getByTestId("total-overdue-box")).not.toHaveClass(/total--warn/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("first-hour-tracker-390.png"), fullPage: true });

  // Autopay on, nothing paid yet: no record is claimed.
  await page.goto(`/bills/${rentId}`);
  await hydrated(page);
  await expect(page.getByTestId("bill-facts")).toContainText("on, not verified by a bank yet");
  await expect(page.getByTestId("autopay-trust")).toHaveCount(0);
  await expect(page.getByTestId("no-payments")).toBeVisible();
  const trust = await (await context.request.get(`/api/bills/${rentId}/autopay`)).json();
  expect(trust).toMatchObject({ kept: 0, dueDates: 0, label: "" });

  await page.goto(`/bills/${waterId}`);
  await hydrated(page);
  await expect(page.getByTestId("no-payments")).toContainText("No payments yet");
  await expect(page.getByTestId("payments")).toBeHidden();
  // One payment, and the table is there instead.
  const paid = await context.request.post(`/api/bills/${waterId}/payments`, { headers, data: {} });
  expect(paid.status(), await paid.text()).toBe(201);
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("payment-row")).toHaveCount(1);
  await expect(page.getByTestId("no-payments")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("first-hour-bill-390.png"), fullPage: true });
  await context.close();
});
