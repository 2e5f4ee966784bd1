import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { csrf, hydrated, newUser, openRegistration } from "./support";

// Issue 53, rule 6: a phone-first Tracker. At 390 x 844 each row of the
// Tracker, Bills, Transactions and Operations is a card: nothing scrolls
// sideways, and every row's pay control is inside the viewport.
const fixtures = path.join(__dirname, "..", "..", "server", "tests", "fixtures", "statements");

/** How far the page, or any table's box, scrolls sideways (0 when none
 * does), and what sticks out past the screen's edge. */
async function sideways(page: Page): Promise<number> {
  const found = await page.evaluate(() => {
    const boxes = [document.documentElement, ...Array.from(document.querySelectorAll<HTMLElement>(".table-wrap"))];
    const width = document.documentElement.clientWidth;
    const past = [...document.querySelectorAll("main *")]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 4)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}">${(element.textContent ?? "").slice(0, 30)}`);
    const over = boxes
      .filter((box) => box.scrollWidth > box.clientWidth)
      .map((box) => `${box.tagName.toLowerCase()}.${box.className} (${box.scrollWidth} in ${box.clientWidth}): ${(box.textContent ?? "").slice(0, 40)}`);
    return { by: Math.max(...boxes.map((box) => box.scrollWidth - box.clientWidth)), past: [...over, ...past] };
  });
  if (found.by > 0) console.log(`past the edge: ${found.past.join("; ")}`);
  return found.by;
}

/** Every element of `rows` lies between the viewport's left and right edges. */
async function rowsFit(page: Page, testId: string, width: number) {
  const rows = page.getByTestId(testId);
  const count = await rows.count();
  expect(count, testId).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = await rows.nth(i).boundingBox();
    expect(box, `${testId} ${i}`).not.toBeNull();
    expect(box!.x, `${testId} ${i} left`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${testId} ${i} right`).toBeLessThanOrEqual(width);
  }
}

test("on a phone every Tracker row is a card with its Mark paid in view, and the other lists fit too", async ({ browser }, testInfo) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "phone-cards@example.com");
  const headers = { "x-csrf-token": await csrf(context) };
  const today = (await (await context.request.get("/api/bills")).json()).today as string;
  const day = Number(today.slice(8));
  const bills = [
    { name: "Rent", amountMinor: 150_000, cadence: "monthly", dueDay: day, anchorDate: today },
    { name: "Comcast Xfinity Internet and Television Bundle", amountMinor: 12_999, cadence: "monthly", dueDay: day, anchorDate: today, autopay: true },
    { name: "Ferienwohnung Berlin", amountMinor: 45_000, currency: "EUR", cadence: "monthly", dueDay: day, anchorDate: today },
    { name: "Dog walker", amountMinor: 6_000, cadence: "weekly", dueDay: day, anchorDate: today },
    { name: "Netflix", amountMinor: 1_549, cadence: "monthly", dueDay: day, anchorDate: today, subscription: true },
  ];
  for (const bill of bills) {
    const made = await context.request.post("/api/bills", { headers, data: bill });
    expect(made.status(), await made.text()).toBe(201);
  }
  // A bank statement gives the Transactions page rows and Operations an import.
  await page.goto("/data");
  await hydrated(page);
  await page.getByLabel("Statement file").setInputFiles(path.join(fixtures, "checking.ofx"));
  await page.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("button", { name: /^Import \d+ new transactions?$/ }).click();
  await expect(page.getByTestId("live-operation").filter({ hasText: "Statement import" })).toContainText("Succeeded");

  // Wide, the Tracker is still a table with its column headers.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/tracker");
  await hydrated(page);
  expect((await page.getByTestId("tracker").locator("thead").boundingBox())!.height).toBeGreaterThan(10);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/tracker");
  await hydrated(page);
  // The column headers are there for screen readers only.
  const header = await page.getByTestId("tracker").locator("thead").boundingBox();
  expect(header!.height).toBeLessThanOrEqual(1);
  expect(await sideways(page), "/tracker").toBeLessThanOrEqual(0);
  const rows = page.getByTestId("tracker-row");
  expect(await rows.count()).toBeGreaterThanOrEqual(bills.length);
  const pays = page.getByRole("button", { name: /^Mark .+ paid/ });
  expect(await pays.count()).toBe(await rows.count());
  for (let i = 0; i < (await pays.count()); i++) {
    const pay = pays.nth(i);
    await pay.scrollIntoViewIfNeeded();
    const box = await pay.boundingBox();
    expect(box, `pay ${i}`).not.toBeNull();
    expect(box!.x, `pay ${i} left`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `pay ${i} right`).toBeLessThanOrEqual(390);
    expect(box!.y + box!.height, `pay ${i} bottom`).toBeLessThanOrEqual(844);
  }
  await rowsFit(page, "tracker-row", 390);
  // The card shows name, amount, due date and status at once.
  const rent = rows.filter({ hasText: "Rent" });
  await expect(rent).toContainText("$1,500.00");
  await expect(rent).toContainText(today);
  await expect(rent.locator(".status")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("tracker-cards-390.png"), fullPage: true });
  await page.getByTestId("tracker").screenshot({ path: testInfo.outputPath("tracker-cards-only-390.png") });

  // Marked paid from the phone layout.
  await rent.getByRole("button", { name: "Mark Rent paid" }).click();
  await expect(rent).toHaveAttribute("data-status", "Paid");
  // "More" opens inside the card, still without sideways scrolling.
  await rows.filter({ hasText: "Netflix" }).locator("summary").first().click();
  expect(await sideways(page), "/tracker with More open").toBeLessThanOrEqual(0);

  for (const [address, testId] of [
    ["/bills", "bill-row"],
    ["/data/transactions", "transactions"],
    ["/operations", "operation-row"],
  ] as const) {
    await page.goto(address);
    await hydrated(page);
    expect(await sideways(page), address).toBeLessThanOrEqual(0);
    await rowsFit(page, testId, 390);
    await page.locator("main").screenshot({ path: testInfo.outputPath(`cards-390${address.replaceAll("/", "-")}.png`) });
  }
  const rowsOfTransactions = page.getByTestId("transactions").locator("tbody tr");
  await page.goto("/data/transactions");
  await hydrated(page);
  expect(await rowsOfTransactions.count()).toBeGreaterThan(0);
  for (let i = 0; i < (await rowsOfTransactions.count()); i++) {
    const box = await rowsOfTransactions.nth(i).boundingBox();
    expect(box!.x + box!.width, `transaction ${i}`).toBeLessThanOrEqual(390);
  }
  await context.close();
});
