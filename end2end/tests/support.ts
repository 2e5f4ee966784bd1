import { Browser, BrowserContext, expect, Page } from "@playwright/test";

// What several specs share: the bootstrap administrator, hydration, the
// CSRF token and a new user in their own browser.
export const ADMIN = "admin@example.com";
export const PASSWORD = "correct horse battery staple";
export const USER_PASSWORD = "seven purple kettles hum";

/** Waits until the page is hydrated (the layout marks `<main>`). */
export async function hydrated(page: Page) {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

export async function csrf(context: BrowserContext): Promise<string> {
  return (await (await context.request.get("/api/auth/csrf-token")).json()).csrfToken;
}

/** Signs `email` in through the API, in `context`'s cookies. */
export async function signInThroughApi(context: BrowserContext, email: string, password: string) {
  const login = await context.request.post("/api/auth/login", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { email, password },
  });
  expect(login.status()).toBe(200);
}

/** Signs the administrator in once to let anyone register. */
export async function openRegistration(browser: Browser) {
  const admin = await browser.newContext();
  await signInThroughApi(admin, ADMIN, PASSWORD);
  const token = await csrf(admin);
  const open = await admin.request.put("/api/admin/registration", {
    headers: { "x-csrf-token": token },
    data: { open: true, currentPassword: PASSWORD },
  });
  expect(open.status()).toBe(200);
  await admin.close();
}

/** A new person with their own browser, signed in through open registration. */
export async function newUser(browser: Browser, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const registered = await context.request.post("/api/auth/register", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { email, name: email.split("@")[0], password: USER_PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  return { context, page: await context.newPage() };
}

/** A monthly bill added through the API by the person of `context`; its id. */
export async function addMonthlyBill(
  context: BrowserContext,
  bill: { name: string; amountMinor: number; anchorDate: string; category?: string },
): Promise<number> {
  const added = await context.request.post("/api/bills", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { cadence: "monthly", dueDay: Number(bill.anchorDate.slice(8)), ...bill },
  });
  expect(added.status(), await added.text()).toBe(201);
  return (await added.json()).id as number;
}
