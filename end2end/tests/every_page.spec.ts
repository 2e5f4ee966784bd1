import { expect, test, type Page } from "@playwright/test";
import { USER_PASSWORD, addMonthlyBill, adminContext, hydrated, newUser, openRegistration, signInThroughApi } from "./support";

// Issue 30, "the first hour": every page fits a 360 px phone (nothing wider
// than the screen, so nothing needs sideways scrolling), no page logs an
// error or a Content-Security-Policy refusal in the console, and every
// control on it is styled (none left as the browser's default).

const PHONE = { width: 360, height: 800 };

/** Opens `path` and returns what went wrong: overflow and console errors. */
async function visit(page: Page, path: string): Promise<string[]> {
  const problems: string[] = [];
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === "error") problems.push(`${path}: console: ${message.text()}`);
  };
  const onError = (error: Error) => problems.push(`${path}: page error: ${error.message}`);
  page.on("console", onConsole);
  page.on("pageerror", onError);
  await page.goto(path);
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const past = [...document.querySelectorAll("body *")].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > width + 1;
    });
    // What is past the edge outside a scrolling box (a wide table's
    // wrapper) is the likely culprit; otherwise name whatever is past it.
    const outside = past.filter((element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") return false;
      }
      return true;
    });
    const over = (outside.length > 0 ? outside : past)
      .slice(0, 3)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> ends at ${Math.round(element.getBoundingClientRect().right)} px`);
    return { scroll: document.documentElement.scrollWidth, width, over };
  });
  const unstyled = await page.evaluate(() => {
    // A browser-default control keeps the browser's font (13.33 px Arial in
    // Chromium), square corners and the system accent colour.
    const font = getComputedStyle(document.body).fontFamily;
    const textLike = /^(text|email|password|search|tel|url|number|date|month|time|datetime-local)$/;
    const controls = [...document.querySelectorAll("input:not([type=hidden]), select, textarea, button")]
      .filter((element) => element.getClientRects().length > 0);
    return controls.flatMap((element) => {
      const style = getComputedStyle(element);
      const type = (element.getAttribute("type") ?? "").toLowerCase();
      const tag = element.tagName.toLowerCase();
      const reasons: string[] = [];
      if (style.fontFamily !== font) reasons.push(`font ${style.fontFamily}`);
      if (tag === "button" || type === "submit" || type === "button") {
        if (style.borderTopLeftRadius === "0px" && !element.classList.contains("button")) reasons.push("a default button");
      } else if (type === "checkbox" || type === "radio") {
        if (style.accentColor === "auto") reasons.push("the system accent colour");
      } else if (tag === "select" || tag === "textarea" || textLike.test(type || "text")) {
        if (style.borderTopLeftRadius === "0px") reasons.push("square default corners");
      }
      const name = element.id ? `#${element.id}` : element.getAttribute("name") ? `[name=${element.getAttribute("name")}]` : `"${(element.textContent ?? "").trim().slice(0, 20)}"`;
      return reasons.length > 0 ? [`<${tag}${type ? ` type=${type}` : ""}> ${name}: ${reasons.join(", ")}`] : [];
    });
  });
  for (const control of new Set(unstyled)) problems.push(`${path}: unstyled ${control}`);
  if (wide.scroll > wide.width) {
    problems.push(`${path}: ${wide.scroll} px wide on a ${wide.width} px screen: ${wide.over.join("; ")}`);
  }
  page.off("console", onConsole);
  page.off("pageerror", onError);
  return problems;
}

async function visitAll(page: Page, paths: string[]) {
  const problems: string[] = [];
  for (const path of paths) {
    problems.push(...(await visit(page, path)));
  }
  expect(problems).toEqual([]);
}

test("the public pages fit a 360 px phone, style every control and log no errors", async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await visitAll(page, ["/", "/features", "/pricing", "/contact", "/support", "/privacy", "/login", "/register"]);
  await context.close();
});

test("a new person's pages fit a 360 px phone, style every control, say what to do when empty, and log no errors", async ({ browser }) => {
  await openRegistration(browser);
  const { context } = await newUser(browser, "phone@example.com");
  await context.close();
  const phone = await browser.newContext({ viewport: PHONE });
  await signInThroughApi(phone, "phone@example.com", USER_PASSWORD);
  const page = await phone.newPage();

  // Before the first bill: the list says how to start.
  await page.goto("/bills");
  await hydrated(page);
  await expect(page.getByTestId("bills-empty")).toContainText("No bills yet");
  await expect(page.getByTestId("bills")).toBeHidden();
  await page.getByRole("button", { name: "Add your first bill" }).click();
  await expect(page.getByRole("heading", { name: "New bill" })).toBeVisible();

  const id = await addMonthlyBill(phone, {
    name: "A card with a rather long name for a narrow screen",
    amountMinor: 12345,
    anchorDate: "2026-12-01",
    category: "Credit cards and loans",
  });

  await visitAll(page, [
    "/tracker",
    "/bills",
    `/bills/${id}`,
    "/subscriptions",
    "/subscriptions/catalog",
    "/data",
    "/data/bank",
    "/data/transactions",
    "/profile",
    "/profile/notifications",
    "/operations",
    // Issue 53, rule 7: opened directly (a reload, a bookmark, a new tab)
    // with each query form, every route hydrates without an error.
    "/bills?new",
    `/bills/${id}?edit`,
    "/tracker?year=2027&month=1",
    "/tracker?period=half",
    "/tracker?sort=amount&dir=desc",
    "/bills?new=",
    "/subscriptions?sort=cadence",
    "/operations?state=done",
  ]);
  await phone.close();
});

test("the Admin pages fit a 360 px phone, style every control and log no errors", async ({ browser }) => {
  const context = await adminContext(browser, { viewport: PHONE });
  const page = await context.newPage();
  await visitAll(page, ["/admin", "/admin/status", "/admin/backups", "/admin/bank", "/admin/notifications", "/admin/authentication", "/operations"]);
  await context.close();
});

test("deleting a bill asks first, says what goes with it, and Keep it keeps it", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "delete-asks@example.com");
  const id = await addMonthlyBill(context, { name: "Gym", amountMinor: 3000, anchorDate: "2026-12-01" });
  await page.goto(`/bills/${id}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const ask = page.getByTestId("delete-confirm");
  await expect(ask).toContainText("Delete Gym for good?");
  await expect(ask).toContainText("Its 0 recorded payments go with it");
  await ask.getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByTestId("delete-confirm")).toHaveCount(0);
  expect((await context.request.get(`/api/bills/${id}`)).status()).toBe(200);

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByTestId("delete-confirm").getByRole("button", { name: "Delete for good" }).click();
  await expect(page).toHaveURL(/\/bills$/);
  expect((await context.request.get(`/api/bills/${id}`)).status()).toBe(404);
  await context.close();
});
