import { Browser, BrowserContext, BrowserContextOptions, expect, Page } from "@playwright/test";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

// The administrator's signed-in browser state (Playwright storageState),
// kept for the run in its temporary data directory.
const ADMIN_STATE = join(process.env.E2E_DATA ?? tmpdir(), "admin-storage-state.json");

/**
 * A browser context signed in as the bootstrap administrator. The session
 * is signed in once and kept as storage state, so the specs do not each
 * sign in again (every sign-in counts against the account's budget); it is
 * signed in afresh only when that session has ended (a restore, a sign-out
 * everywhere).
 */
export async function adminContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  if (existsSync(ADMIN_STATE)) {
    const context = await browser.newContext({ ...options, storageState: ADMIN_STATE });
    const me = await context.request.get("/api/auth/me");
    if (me.ok() && (await me.json()).user?.email === ADMIN) {
      return context;
    }
    await context.close();
  }
  const context = await browser.newContext(options);
  await signInThroughApi(context, ADMIN, PASSWORD);
  await context.storageState({ path: ADMIN_STATE });
  return context;
}

/** Lets anyone register, as the administrator. */
export async function openRegistration(browser: Browser) {
  const admin = await adminContext(browser);
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

/** A new person signed in, in a browser with JavaScript turned off. */
export async function newUserWithoutJavaScript(
  browser: Browser,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const joining = await newUser(browser, email);
  const storageState = await joining.context.storageState();
  await joining.context.close();
  const context = await browser.newContext({ javaScriptEnabled: false, storageState });
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
