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

// Issue 53, rule 1: last month's payment, entered on the first day, is
// history; the payment form says which due date a payment pays.
test("last month's payment is history, and the form names the due date a payment pays", async ({ browser }, testInfo) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "first-hour-history@example.com");
  const headers = { "x-csrf-token": await csrf(context) };
  const today = (await (await context.request.get("/api/bills")).json()).today as string;
  const monthAgo = new Date(`${today}T12:00:00Z`);
  monthAgo.setUTCDate(monthAgo.getUTCDate() - 30);
  const lastMonth = monthAgo.toISOString().slice(0, 10);
  const created = await context.request.post("/api/bills", {
    headers,
    data: { name: "Spotify", amountMinor: 1199, cadence: "monthly", dueDay: Number(today.slice(8)), anchorDate: today },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as number;

  await page.goto(`/bills/${id}`);
  await hydrated(page);
  await expect(page.getByLabel("Paid on")).toHaveValue(today);
  await page.getByLabel("Paid on").fill(lastMonth);
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByTestId("payment-row")).toHaveCount(1);
  // The list says so: last month's payment pays no due date.
  await expect(page.getByTestId("payment-pays")).toHaveText("nothing: history, from before the first due date");

  await page.goto("/tracker");
  await hydrated(page);
  const row = page.getByTestId("tracker-row").filter({ hasText: "Spotify" });
  await expect(row).toHaveAttribute("data-status", "Due soon");
  await expect(page.getByTestId("total-paid")).toHaveText("$0.00");

  // Paid today, said to be for today's due date: now it is paid.
  await page.goto(`/bills/${id}`);
  await hydrated(page);
  await page.getByLabel("Which due date does it pay?").selectOption(today);
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByTestId("payment-row")).toHaveCount(2);
  await expect(page.getByTestId("payment-pays").first()).toHaveText(`the ${today} due date`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("first-hour-pays-which-390.png"), fullPage: true });
  await page.goto("/tracker");
  await hydrated(page);
  await expect(row).toHaveAttribute("data-status", "Paid");
  await expect(page.getByTestId("total-paid")).toHaveText("$11.99");
  await context.close();
});
