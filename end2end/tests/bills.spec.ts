import { Browser, BrowserContext, expect, Locator, Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { csrf, hydrated, newUser, openRegistration, USER_PASSWORD } from "./support";

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, most = 80) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < most; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${most} presses of Tab never reached ${target}`);
}

/** Whether the focused element shows where the focus is. */
async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    return focused !== null && getComputedStyle(focused).outlineStyle !== "none";
  });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  // One admin sign-in opens registration for the people below.
  await openRegistration(browser);
});

test("a signed-out visitor who opens the tracker is sent to sign in", async ({ page }) => {
  await page.goto("/tracker");
  await expect(page).toHaveURL(/\/login\?next=%2Ftracker$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Sign in");
});

test("signed-in pages arrive with their data and the signed-in header, without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const registered = await context.request.post("/api/auth/register", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { email: "nojs@example.com", name: "nojs", password: USER_PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  // Signed in, the token is the one bound to the new session.
  const token = await csrf(context);
  const { today } = await (await context.request.get("/api/bills")).json();
  for (const bill of [
    { name: "Gym membership", amountMinor: 3_000, subscription: true },
    { name: "Car insurance", amountMinor: 12_345, subscription: false },
  ]) {
    const added = await context.request.post("/api/bills", {
      headers: { "x-csrf-token": token },
      data: { ...bill, cadence: "monthly", dueDay: Number(today.slice(8, 10)), anchorDate: today },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  const page = await context.newPage();
  const response = await page.goto("/tracker");
  expect(response?.status()).toBe(200);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Tracker" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Profile" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
  // The month's bills and totals are in the page itself.
  await expect(page.getByTestId("tracker-row")).toHaveCount(2);
  await expect(page.getByTestId("tracker").getByRole("link", { name: "Car insurance" })).toBeVisible();
  await expect(page.getByTestId("total-due")).toHaveText("$153.45");
  await expect(page.getByText("Loading…")).toHaveCount(0);

  await page.goto("/subscriptions");
  await expect(page.getByTestId("subscription")).toHaveText([/Gym membership/]);
  await expect(page.getByTestId("subs-yearly")).toHaveText("$360.00");

  await page.goto("/profile");
  await expect(page.getByTestId("profile-email")).toHaveValue("nojs@example.com");
  await context.close();
});

test("a user adds a bill, sees it due in the Tracker, marks it paid, and moves it to another account by CSV", async ({ browser }, testInfo) => {
  const dora = await newUser(browser, "dora@example.com");
  const page = dora.page;

  await page.goto("/bills");
  await hydrated(page);
  await page.getByRole("button", { name: "New bill" }).click();
  await page.getByLabel("Name").fill("Water");
  await page.getByLabel("Amount", { exact: true }).fill("42.505");
  await page.getByRole("button", { name: "Add bill" }).click();
  // The shared rule catches the amount before anything is sent.
  await expect(page.locator("#amountMinor-error")).toHaveText("use at most 2 digits after the decimal point");
  await page.getByLabel("Amount", { exact: true }).fill("42.50");
  await page.getByLabel("Category").fill("Utilities");
  await page.screenshot({ path: testInfo.outputPath("bill-form.png"), fullPage: true });
  await page.getByRole("button", { name: "Add bill" }).click();
  await expect(page).toHaveURL(/\/bills\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Water");
  await expect(page.getByTestId("bill-facts")).toContainText("$42.50");

  // The form's defaults make it due today: the Tracker shows it due soon.
  await page.getByRole("navigation").getByRole("link", { name: "Tracker" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  const row = page.getByTestId("tracker-row").filter({ hasText: "Water" });
  await expect(row).toHaveAttribute("data-status", "Due soon");
  await expect(page.getByTestId("total-due")).toHaveText("$42.50");
  await expect(page.getByTestId("total-paid")).toHaveText("$0.00");
  await row.getByRole("button", { name: "Mark Water paid" }).click();
  await expect(row).toHaveAttribute("data-status", "Paid");
  await expect(page.getByTestId("total-paid")).toHaveText("$42.50");
  await expect(page.getByTestId("total-remaining")).toHaveText("$0.00");
  // The spending chart follows the payment.
  await expect(page.getByTestId("spending-chart")).toContainText("Utilities");
  await page.screenshot({ path: testInfo.outputPath("tracker-paid.png"), fullPage: true });

  // Export the bills as CSV.
  await page.getByRole("navigation").getByRole("link", { name: "Data" }).click();
  await hydrated(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download bills (CSV)" }).click(),
  ]);
  const file = testInfo.outputPath("bills.csv");
  await download.saveAs(file);
  const [paymentsDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download payments (CSV)" }).click(),
  ]);
  const paymentsFile = testInfo.outputPath("payments.csv");
  await paymentsDownload.saveAs(paymentsFile);
  const paymentsText = readFileSync(paymentsFile, "utf8");
  expect(paymentsText).toContain(",42.50,USD,manual,payment,0.00,false");
  expect(paymentsText.startsWith("bill,paid_on,amount")).toBe(true);

  // Erin imports it into her own account.
  const erin = await newUser(browser, "erin@example.com");
  await erin.page.goto("/data");
  await hydrated(erin.page);
  await erin.page.getByLabel("CSV file").setInputFiles(file);
  await expect(erin.page.getByTestId("import-summary")).toHaveText("1 rows ready, 0 with problems.");
  await expect(erin.page.getByTestId("import-preview")).toContainText("Water");
  await erin.page.getByRole("button", { name: "Import these bills" }).click();
  await expect(erin.page.getByTestId("import-done")).toHaveText("Imported 1 bills.");
  await erin.page.goto("/bills");
  await expect(erin.page.getByTestId("bill-row")).toHaveCount(1);
  await expect(erin.page.getByTestId("bill-row")).toContainText("Water");
  await expect(erin.page.getByTestId("bill-row")).toContainText("$42.50");

  await dora.context.close();
  await erin.context.close();
});

test("subscriptions keep a custom order, group by cadence without reordering, and fit a phone", async ({ browser }, testInfo) => {
  const finn = await newUser(browser, "finn@example.com");
  const page = finn.page;
  await page.setViewportSize({ width: 390, height: 844 });
  const token = await csrf(finn.context);
  for (const [name, cadence, amountMinor] of [
    ["Music", "monthly", 999],
    ["Cloud storage", "yearly", 12_000],
    ["News", "monthly", 500],
  ] as const) {
    const made = await finn.context.request.post("/api/bills", {
      headers: { "x-csrf-token": token },
      data: { name, amountMinor, cadence, dueDay: 3, anchorDate: "2026-01-03", subscription: true, category: "Streaming" },
    });
    expect(made.status(), await made.text()).toBe(201);
  }

  await page.goto("/subscriptions");
  await hydrated(page);
  const names = page.getByTestId("subscription").getByRole("link");
  await expect(names).toHaveText(["Music", "Cloud storage", "News"]);
  // 9.99 + 5.00 a month, plus 120.00 a year (10.00 a month).
  await expect(page.getByTestId("subs-monthly")).toHaveText("$24.99");
  await expect(page.getByTestId("subs-yearly")).toHaveText("$299.88");

  await page.getByRole("button", { name: "Move News up" }).click();
  await expect(names).toHaveText(["Music", "News", "Cloud storage"]);
  // The page says when the new order is kept; only then is it safe to leave.
  await expect(page.getByTestId("order-status")).toHaveText("Order saved.");
  await page.reload();
  await hydrated(page);
  await expect(names).toHaveText(["Music", "News", "Cloud storage"]);

  await page.getByRole("link", { name: "Cadence" }).click();
  await expect(page).toHaveURL(/\/subscriptions\?sort=cadence$/);
  const tracked = page.getByRole("region", { name: "Tracked Subscriptions" });
  await expect(tracked.getByRole("heading", { level: 3 })).toHaveText(["Monthly", "Yearly"]);
  await expect(page.getByRole("button", { name: /^Move / })).toHaveCount(0);

  // Nothing spills sideways on a phone, here or in the Tracker.
  for (const path of ["/subscriptions", "/subscriptions/catalog", "/tracker", "/bills"]) {
    await page.goto(path);
    await hydrated(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await page.screenshot({ path: testInfo.outputPath("bills-phone.png"), fullPage: true });
  await finn.context.close();
});

test("with the keyboard alone a user adds a subscription from the catalog, marks it paid, and switches to pay periods", async ({ browser }, testInfo) => {
  const gina = await newUser(browser, "gina@example.com");
  const page = gina.page;
  const keys = page.keyboard;

  await page.goto("/bills");
  await hydrated(page);
  await tabTo(page, page.getByRole("button", { name: "New bill" }));
  expect(await focusIsVisible(page)).toBe(true);
  await keys.press("Enter");
  await tabTo(page, page.getByLabel("Name"));
  await keys.type("Films");
  await tabTo(page, page.getByLabel("Amount", { exact: true }));
  await keys.type("15.49");
  await tabTo(page, page.getByRole("checkbox", { name: "is a subscription" }));
  await keys.press("Space");
  // The catalog picker is searched by typing.
  const picker = page.getByLabel(/Known service/);
  await tabTo(page, picker);
  await keys.type("Netflix (Streaming)");
  await expect(page.locator("#catalogId-linked")).toHaveText("Linked to Netflix (Streaming)");
  await tabTo(page, page.getByRole("button", { name: "Add bill" }));
  await keys.press("Enter");
  await expect(page).toHaveURL(/\/bills\/\d+$/);
  await expect(page.getByTestId("catalog-service")).toHaveText("Netflix");
  await expect(page.getByTestId("bill-facts")).toContainText("Streaming");

  // Tracker: the bill is due today; mark it paid from the keyboard.
  await tabTo(page, page.getByRole("navigation").getByRole("link", { name: "Tracker" }));
  await keys.press("Enter");
  await expect(page).toHaveURL(/\/tracker$/);
  const row = page.getByTestId("tracker-row").filter({ hasText: "Films" });
  await expect(row).toHaveAttribute("data-status", "Due soon");
  await tabTo(page, row.getByRole("button", { name: "Mark Films paid" }));
  await keys.press("Enter");
  await expect(row).toHaveAttribute("data-status", "Paid");

  // Paid every two weeks: Profile takes the schedule and a payday.
  await tabTo(page, page.getByRole("navigation").getByRole("link", { name: "Profile" }));
  await keys.press("Enter");
  await expect(page).toHaveURL(/\/profile$/);
  const schedule = page.getByLabel(/Pay schedule/);
  await tabTo(page, schedule);
  await keys.press("ArrowDown");
  await keys.press("ArrowDown");
  await expect(schedule).toHaveValue("biweekly");
  const today = (await (await gina.context.request.get("/api/bills")).json()).today as string;
  const [year, month, day] = today.split("-");
  await tabTo(page, page.getByLabel("One payday"));
  await keys.type(`${month}${day}${year}`);
  await expect(page.getByLabel("One payday")).toHaveValue(today);
  await tabTo(page, page.getByRole("button", { name: "Save preferences" }));
  await keys.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  await tabTo(page, page.getByRole("navigation").getByRole("link", { name: "Tracker" }));
  await keys.press("Enter");
  await expect(page.getByTestId("tracker-span")).toContainText(`Pay period ${today} to `);
  await expect(page.getByRole("link", { name: "Pay periods" })).toHaveAttribute("aria-current", "page");
  await expect(row).toHaveAttribute("data-status", "Paid");
  await tabTo(page, page.getByRole("link", { name: "Months" }));
  await keys.press("Enter");
  const monthName = new Date(`${today}T12:00:00Z`).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  await expect(page.getByTestId("tracker-span")).toHaveText(`${monthName} ${year}`);
  await page.screenshot({ path: testInfo.outputPath("tracker-keyboard.png"), fullPage: true });
  await gina.context.close();
});

test("a debt shows this month's interest before it is charged", async ({ browser }) => {
  const hal = await newUser(browser, "hal@example.com");
  const made = await hal.context.request.post("/api/bills", {
    headers: { "x-csrf-token": await csrf(hal.context) },
    data: {
      name: "Card", amountMinor: 5000, cadence: "monthly", dueDay: 20, anchorDate: "2026-01-20",
      debt: true, balanceMinor: 100_000, aprBasisPoints: 1200,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  await hal.page.goto(`/bills/${(await made.json()).id}`);
  await hydrated(hal.page);
  await expect(hal.page.getByTestId("balance")).toHaveText("$1,000.00");
  // 12 % a year is 1 % a month of 1,000.00.
  await expect(hal.page.getByTestId("interest-pending")).toContainText("$10.00");
  // The form says when interest starts (the walk's "a full month on the
  // first payment" is this rule, now written where the balance is typed).
  await hal.page.getByRole("button", { name: "Edit" }).click();
  await expect(hal.page.getByTestId("interest-rule")).toContainText("starting with the month the debt is added");
  await hal.context.close();
});
