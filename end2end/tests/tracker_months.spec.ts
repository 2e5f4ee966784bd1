import { expect, test, type BrowserContext, type Locator } from "@playwright/test";
import { USER_PASSWORD, csrf, hydrated, newUser, openRegistration, signInThroughApi } from "./support";

// Issue 30: the Tracker moves between months (links, ← and →, back and
// forward, a bookmarked address), lists what is coming, draws the month as
// a calendar, and its rows skip, snooze, change this time's amount and mark
// paid, with JavaScript and without.

type Today = { today: string; next: { year: number; month: number }; lastDay: string };

async function today(context: BrowserContext): Promise<Today> {
  const today = (await (await context.request.get("/api/bills")).json()).today as string;
  const [year, month] = today.split("-").map(Number);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { today, next, lastDay: `${today.slice(0, 8)}${String(last).padStart(2, "0")}` };
}

async function addBill(context: BrowserContext, name: string, amountMinor: number, due: string) {
  const response = await context.request.post("/api/bills", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { name, amountMinor, cadence: "monthly", dueDay: Number(due.slice(8)), anchorDate: due },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Opens a row's "More" (a `<details>`) unless it is open already. */
async function openMore(row: Locator) {
  const details = row.locator("details.row-more");
  if ((await details.getAttribute("open")) === null) {
    await details.locator("summary").click();
  }
  await expect(details).toHaveAttribute("open", "");
}

const monthName = (year: number, month: number) =>
  `${new Date(Date.UTC(year, month - 1, 15)).toLocaleString("en-US", { month: "long", timeZone: "UTC" })} ${year}`;

test("a person moves between months, reads what is coming and the calendar, and acts on a row", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "months-e2e@example.com");
  const when = await today(context);
  const [year, month] = when.today.split("-").map(Number);
  await addBill(context, "Power", 6000, when.lastDay);
  const nextFirst = `${when.next.year}-${String(when.next.month).padStart(2, "0")}-01`;
  await addBill(context, "Rent", 150000, nextFirst);

  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) {
      refused.push(message.text());
    }
  });
  await page.goto("/tracker");
  await hydrated(page);
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(year, month));
  await expect(page.getByTestId("calendar")).toBeVisible();
  await expect(page.getByTestId("calendar").getByRole("link", { name: "Power" })).toBeVisible();
  await expect(page.getByTestId("upcoming")).toContainText("Power");

  // → moves to next month, with its own address; back returns.
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(new RegExp(`/tracker\\?year=${when.next.year}&month=${when.next.month}$`));
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(when.next.year, when.next.month));
  await expect(page.getByTestId("tracker-row").filter({ hasText: "Rent" })).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(year, month));
  await page.getByRole("link", { name: /^Next:/ }).click();
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(when.next.year, when.next.month));
  await page.getByRole("link", { name: /^Previous:/ }).click();
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(year, month));

  // This time's amount, then a skip and its undo, then a snooze.
  const power = page.getByTestId("tracker-row").filter({ hasText: "Power" });
  await openMore(power);
  await power.getByLabel("This time's amount").fill("71.20");
  await power.getByLabel("Note").fill("cold month");
  await power.getByRole("button", { name: "Save" }).click();
  await expect(power).toContainText("$71.20 (usually $60.00)");
  await expect(power).toContainText("cold month");
  await openMore(page.getByTestId("tracker-row").filter({ hasText: "Power" }));
  await page.getByTestId("tracker-row").filter({ hasText: "Power" }).getByRole("button", { name: "Skip this time" }).click();
  await expect(page.getByTestId("tracker-row").filter({ hasText: "Power" })).toHaveAttribute("data-status", "Skipped");
  // Due is paid, still to pay and skipped: the skip has its own line.
  await expect(page.getByTestId("total-remaining")).toHaveText("$0.00");
  await expect(page.getByTestId("total-skipped")).toHaveText("Due includes $71.20 skipped this time.");
  await openMore(page.getByTestId("tracker-row").filter({ hasText: "Power" }));
  await page.getByTestId("tracker-row").filter({ hasText: "Power" }).getByRole("button", { name: "Undo skip" }).click();
  await expect(page.getByTestId("total-due")).toHaveText("$71.20");
  await page.getByTestId("tracker-row").filter({ hasText: "Power" }).getByRole("button", { name: "Mark Power paid" }).click();
  await expect(page.getByTestId("tracker-row").filter({ hasText: "Power" })).toHaveAttribute("data-status", "Paid");
  await expect(page.getByTestId("total-paid")).toHaveText("$71.20", { timeout: 10_000 });
  // The chart names its months and draws its legend without inline styles.
  const chart = page.getByTestId("spending-chart");
  await expect(chart.locator("text.chart__month")).toHaveCount(6);
  await expect(chart.locator("text.chart__value")).toContainText(["$71.20"]);
  await expect(chart.locator(".legend svg.swatch")).toHaveCount(1);
  expect(refused, "no Content-Security-Policy violation on the Tracker").toEqual([]);

  // A bookmarked address opens that view, sorted as it says.
  await page.goto(`/tracker?year=${when.next.year}&month=${when.next.month}&sort=name&dir=desc`);
  await hydrated(page);
  await expect(page.getByTestId("tracker-span")).toHaveText(monthName(when.next.year, when.next.month));
  const names = await page.getByTestId("tracker-row").locator("td:nth-child(2) a").allTextContents();
  expect(names).toEqual([...names].sort().reverse());
  await expect(page.getByRole("columnheader", { name: "Bill" })).toHaveAttribute("aria-sort", "descending");
  await context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Tracker moves between months and its rows skip, snooze and pay", async ({ browser }) => {
    await openRegistration(browser);
    const { context, page } = await newUser(browser, "months-nojs@example.com");
    const when = await today(context);
    const [year, month] = when.today.split("-").map(Number);
    await addBill(context, "Water", 4200, when.lastDay);

    await page.goto("/tracker");
    await expect(page.getByTestId("tracker-span")).toHaveText(monthName(year, month));
    await page.getByRole("link", { name: /^Next:/ }).click();
    await expect(page).toHaveURL(new RegExp(`year=${when.next.year}&month=${when.next.month}`));
    await expect(page.getByTestId("tracker-span")).toHaveText(monthName(when.next.year, when.next.month));
    await page.getByRole("link", { name: /^Previous:/ }).click();

    const water = () => page.getByTestId("tracker-row").filter({ hasText: "Water" });
    await openMore(water());
    await water().getByRole("button", { name: "Skip this time" }).click();
    await expect(water()).toHaveAttribute("data-status", "Skipped");
    await openMore(water());
    await water().getByRole("button", { name: "Undo skip" }).click();
    await expect(water()).not.toHaveAttribute("data-status", "Skipped");
    await water().getByRole("button", { name: "Mark Water paid" }).click();
    await expect(water()).toHaveAttribute("data-status", "Paid");
    await expect(page.getByTestId("total-paid")).toHaveText("$42.00");
    await context.close();
  });
});

test("a bill charged more for two months shows on the Tracker, is updated and the update undone", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "drift-e2e@example.com");
  const when = await today(context);
  const [year, month] = when.today.split("-").map(Number);
  const first = (offset: number) => {
    const d = new Date(Date.UTC(year, month - 1 + offset, 1));
    return d.toISOString().slice(0, 10);
  };
  await addBill(context, "Films", 1549, first(-2));
  const bills = (await (await context.request.get("/api/bills")).json()).bills as { id: number; name: string }[];
  const films = bills.find((bill) => bill.name === "Films")!;
  for (const [offset, amountMinor] of [[-2, 1549], [-1, 1799], [0, 1799]]) {
    const paid = await context.request.post(`/api/bills/${films.id}/payments`, {
      headers: { "x-csrf-token": await csrf(context) },
      data: { amountMinor, paidOn: first(offset) },
    });
    expect(paid.status()).toBe(201);
  }
  await page.goto("/tracker");
  await hydrated(page);
  const panel = page.getByTestId("drift-panel");
  await expect(panel).toContainText("Films was charged about $17.99 lately; Tally expects $15.49.");
  await panel.getByRole("button", { name: "Update to $17.99" }).click();
  await expect(page.getByTestId("drift-panel")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Updated the bill's amount." })).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("drift-panel")).toContainText("Tally expects $15.49.");
  await page.getByTestId("drift-panel").getByRole("button", { name: "Dismiss Films" }).click();
  await expect(page.getByTestId("drift-panel")).toHaveCount(0);
  await context.close();
});

test("the bill form takes a typed date with a leading zero and derives the due day from it", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "typed-date@example.com");
  await page.goto("/bills");
  await hydrated(page);
  await page.getByRole("button", { name: "New bill" }).click();
  await page.getByLabel("Name").fill("Internet");
  await page.getByLabel("Amount", { exact: true }).fill("49.99");
  await expect(page.getByLabel("Amount", { exact: true })).toHaveAttribute("inputmode", "decimal");
  await expect(page.getByLabel("Due day of the month")).toHaveCount(0);
  const first = page.getByLabel("First due date");
  await first.focus();
  await page.keyboard.type("12012026");
  await expect(first).toHaveValue("2026-12-01");
  await page.getByRole("button", { name: "Add bill" }).click();
  await expect(page).toHaveURL(/\/bills\/\d+$/);
  const bills = (await (await context.request.get("/api/bills")).json()).bills as { name: string; dueDay: number; anchorDate: string }[];
  expect(bills.find((bill) => bill.name === "Internet")).toMatchObject({ dueDay: 1, anchorDate: "2026-12-01" });
  await context.close();
});

test("Pin due puts what was missed first, is remembered, and switches without JavaScript too", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "pin-due@example.com");
  const when = await today(context);
  const [year, month] = when.today.split("-").map(Number);
  // Last month: Gym was due on the 2nd and paid, Power on the 20th and not.
  const last = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
  const day = (d: number) => `${last.year}-${String(last.month).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  await addBill(context, "Gym", 3000, day(2));
  await addBill(context, "Power", 6000, day(20));
  const bills = (await (await context.request.get("/api/bills")).json()).bills as { id: number; name: string }[];
  const gym = bills.find((bill) => bill.name === "Gym")!;
  const paid = await context.request.post(`/api/bills/${gym.id}/payments`, {
    headers: { "x-csrf-token": await csrf(context) },
    data: { amountMinor: 3000, paidOn: day(2) },
  });
  expect(paid.status()).toBe(201);
  const address = `/tracker?year=${last.year}&month=${last.month}`;
  const names = () => page.getByTestId("tracker-row").getByRole("link").allTextContents();

  await page.goto(address);
  await hydrated(page);
  expect(await names()).toEqual(["Gym", "Power"]);
  const pin = page.getByTestId("pin-due");
  await expect(pin).toHaveAttribute("aria-pressed", "false");
  await pin.click();
  await expect(page.getByTestId("pin-due")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("tracker")).toHaveAttribute("data-order", "pin");
  expect(await names()).toEqual(["Power", "Gym"]);

  // Remembered on the server: a new page load keeps the order.
  await page.goto(address);
  await hydrated(page);
  expect(await names()).toEqual(["Power", "Gym"]);
  // A column's order asked for in the address still wins.
  await page.getByTestId("tracker").getByRole("link", { name: "Due" }).click();
  await expect(page).toHaveURL(/sort=due_day/);
  await expect(page.getByTestId("tracker")).toHaveAttribute("data-order", "due_day");
  expect(await names()).toEqual(["Gym", "Power"]);
  await context.close();

  // Without JavaScript the button is a plain form post (its CSRF token in
  // a hidden field) that turns it off again.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await signInThroughApi(plain, "pin-due@example.com", USER_PASSWORD);
  const still = await plain.newPage();
  await still.goto(address);
  await expect(still.getByTestId("pin-due")).toHaveAttribute("aria-pressed", "true");
  await expect(still.locator('[data-testid="pin-due"]').locator("xpath=..").locator('input[name="csrf_token"]')).toHaveAttribute("value", /^[A-Za-z0-9_-]{43}$/);
  await still.getByTestId("pin-due").click();
  await expect(still.getByTestId("pin-due")).toHaveAttribute("aria-pressed", "false");
  expect(await still.getByTestId("tracker-row").getByRole("link").allTextContents()).toEqual(["Gym", "Power"]);
  await plain.close();
});

test("without a pay schedule the Tracker shows half months and moves between them", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "half-months@example.com");
  await page.goto("/tracker");
  await hydrated(page);
  // One choice looks selected at a time (issue 53, rule 10).
  const months = page.getByRole("link", { name: "Months", exact: true });
  await expect(months).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Half months" })).not.toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Half months" }).click();
  await expect(page).toHaveURL(/\/tracker\?period=half$/);
  await expect(page.getByRole("link", { name: "Half months" })).toHaveAttribute("aria-current", "page");
  await expect(months).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("navigation", { name: "Periods" }).locator("[aria-current]")).toHaveCount(0);
  const span = page.getByTestId("tracker-span");
  await expect(span).toHaveText(/^Half month \d{4}-\d{2}-(01|15) to \d{4}-\d{2}-\d{2}$/);
  const shown = await span.textContent();
  await page.getByRole("link", { name: "Next: Next half month" }).click();
  await expect(page).toHaveURL(/\/tracker\?period=half&from=\d{4}-\d{2}-(01|15)$/);
  await expect(span).not.toHaveText(shown!);
  await page.goBack();
  await expect(span).toHaveText(shown!);
  await context.close();
});
