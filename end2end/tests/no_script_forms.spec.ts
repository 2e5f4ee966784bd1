import { expect, test, type Browser, type Page } from "@playwright/test";
import { ADMIN, PASSWORD, USER_PASSWORD, addMonthlyBill, adminContext, csrf, hydrated, newUser, openRegistration } from "./support";

// Issue 28, item 12: every form that carries a secret is a POST form, so
// with JavaScript off (or submitted before the page hydrated) no field
// lands in the address, the history or the next page's Referer. Signing
// in works without JavaScript altogether.

/** The address carries none of the typed values, and no query at all
 * beyond what the page itself put there. */
function expectClean(page: Page, secrets: string[]) {
  const url = decodeURIComponent(page.url());
  // A refusal comes back in `__err`: the error body, URL-safe base64.
  const err = new URL(page.url()).searchParams.get("__err");
  const refusal = err ? Buffer.from(err, "base64url").toString("utf8") : "";
  for (const secret of secrets) {
    expect(url).not.toContain(secret);
    expect(refusal).not.toContain(secret);
  }
  expect(url).not.toMatch(/[?&](email|password|currentPassword|newPassword|name|code)=/);
}

test("signing in works without JavaScript and the password never reaches the address", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login?next=%2Fbills");
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill("a wrong guess 123");
  await page.getByRole("button", { name: "Sign in" }).click();
  // The form posts to the sign-in server function, which sends the
  // browser back (keeping `next`) with the refusal in the address.
  await expect(page).toHaveURL(/\/login\?next=%2Fbills&.*__err=/);
  await expect(page.getByRole("alert")).toContainText("email or password is wrong");
  expectClean(page, ["a wrong guess 123", ADMIN]);

  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/bills$/);
  expectClean(page, [PASSWORD]);
  await context.close();
});

test("registration, password change, token creation and the second factor work without JavaScript", async ({ browser }) => {
  await openRegistration(browser);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: "Create your Tally account" })).toBeVisible();
  await page.getByLabel("Email").fill("no-script-forms@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/register\?.*__err=/);
  await expect(page.getByRole("alert")).toContainText("use at least 12 characters");
  expectClean(page, ["no-script-forms"]);

  await page.getByLabel("Email").fill("no-script-forms@example.com");
  await page.getByLabel("Password").fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  expectClean(page, [USER_PASSWORD]);

  await page.getByLabel("Current password", { exact: true }).fill("not my password at all");
  await page.getByLabel("New password").fill("another secret passphrase 2");
  await page.getByRole("button", { name: "Change password" }).click();
  // The form posts to its server function, which sends the browser back
  // with the refusal (never a typed value) in the address.
  await expect(page).toHaveURL(/\/profile\?.*__err=/);
  await expect(page.getByRole("alert").filter({ hasText: "this is not your current password" })).toBeVisible();
  expectClean(page, ["not my password at all", "another secret passphrase 2"]);
  await page.getByLabel("Current password", { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel("New password").fill("another secret passphrase 2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/profile\?form=password-changed$/);
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  expectClean(page, [USER_PASSWORD, "another secret passphrase 2"]);

  // Name and email are a form too: the browser comes back to Profile.
  await page.getByLabel("Name", { exact: true }).fill("No Script Name");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/profile/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("No Script Name");

  await page.getByLabel("Token name").fill("a token name");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("heading", { name: "Your new API token" })).toBeVisible();
  await expect(page.getByTestId("new-token")).not.toBeEmpty();
  expectClean(page, ["a token name"]);

  await page.getByRole("link", { name: "Back to your profile" }).click();
  // Revoking is a form too: the browser comes back to Profile, the token gone.
  await page.getByRole("button", { name: "Revoke a token name" }).click();
  await expect(page).toHaveURL(/\/profile/);
  await expect(page.getByRole("button", { name: "Revoke a token name" })).toHaveCount(0);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeVisible();
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page).toHaveURL(/\/profile\?form=wrong-code$/);
  expectClean(page, ["000000"]);
  await context.close();
});

/** Someone who joined (through the API) and then signed in with the form,
 * in a browser with JavaScript off: on their Tracker. */
async function joinedWithoutScript(browser: Browser, email: string, name: string) {
  await openRegistration(browser);
  const joining = await browser.newContext();
  const registered = await joining.request.post("/api/auth/register", {
    headers: { "x-csrf-token": await csrf(joining) },
    data: { email, name, password: USER_PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  await joining.close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  return { context, page };
}

// Issue 33, point 5: the writes work without JavaScript. The forms are
// `ActionForm`s posting to the same server functions the pages call; the
// server answers a browser's own post with the page to open, or the form
// again with each field's message.
test("without JavaScript a person signs in, adds a bill, records payments and submits a lead", async ({ browser }, testInfo) => {
  const { context, page } = await joinedWithoutScript(browser, "no-script-bills@example.com", "Noor");

  // The "New bill" link opens the form; the server checks what was typed.
  await page.goto("/bills");
  await page.getByRole("button", { name: "Add your first bill" }).click();
  await expect(page).toHaveURL(/\/bills\?new$/);
  await page.getByLabel("Name").fill("Internet");
  await page.getByLabel("Amount", { exact: true }).fill("59.999");
  await page.getByRole("button", { name: "Add bill" }).click();
  await expect(page.locator("#amountMinor-error")).toHaveText("use at most 2 digits after the decimal point");
  await expect(page.getByLabel("Amount", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: "fix the marked fields" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("bill-form-no-script.png"), fullPage: true });

  // A debt's terms appear when the box is ticked, by the stylesheet alone.
  await expect(page.getByLabel("Balance owed")).toBeHidden();
  await page.getByRole("checkbox", { name: "is a debt" }).check();
  await expect(page.getByLabel("Balance owed")).toBeVisible();
  await page.getByRole("checkbox", { name: "is a debt" }).uncheck();

  await page.getByLabel("Name").fill("Internet");
  await page.getByLabel("Amount", { exact: true }).fill("59.99");
  await page.getByLabel("Category").fill("Phone & internet");
  await page.getByRole("button", { name: "Add bill" }).click();
  await expect(page).toHaveURL(/\/bills\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internet");
  await expect(page.getByTestId("bill-facts")).toContainText("$59.99");

  // The Tracker's "Mark paid" records the payment.
  await page.goto("/tracker");
  const row = page.getByTestId("tracker-row").filter({ hasText: "Internet" });
  await expect(row).toHaveAttribute("data-status", "Due soon");
  await row.getByRole("button", { name: "Mark Internet paid" }).click();
  // Back on the Tracker (Leptos leaves an empty query behind).
  await expect(page).toHaveURL(/\/tracker\??$/);
  await expect(row).toHaveAttribute("data-status", "Paid");
  await expect(page.getByTestId("total-paid")).toHaveText("$59.99");

  // The bill's own page records a payment too: a refused amount comes
  // back with its message, then the payment is listed.
  await page.goto("/bills");
  await page.getByRole("link", { name: "Internet" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Internet");
  await page.getByLabel("Amount").fill("5.555");
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "use at most 2 digits" })).toBeVisible();
  await page.getByLabel("Amount").fill("5");
  await page.getByLabel("Method").fill("cash");
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByTestId("payment-row").filter({ hasText: "cash" })).toHaveCount(1);

  // A lead, from the public contact form.
  await page.goto("/contact");
  await page.getByLabel("Your name").fill("Noor Script");
  await page.getByLabel("Email").fill("noor@example");
  await page.getByLabel("How can we help?").fill("We pay our bills with JavaScript off.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("#email-error")).toHaveText("enter an address like name@example.com");
  await page.getByLabel("Your name").fill("Noor Script");
  await page.getByLabel("Email").fill("noor@example.com");
  await page.getByLabel("How can we help?").fill("We pay our bills with JavaScript off.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/contact\?sent=\d+$/);
  await expect(page.getByTestId("contact-sent")).toContainText("Thank you, your message is with us.");
  await context.close();

  // Each is stored: the bill and its payment for Noor, the lead for Admin.
  const admin = await adminContext(browser);
  const leads = await (await admin.request.get("/api/admin/leads?search=Noor%20Script")).json();
  expect(leads.items).toHaveLength(1);
  expect(leads.items[0]).toMatchObject({ email: "noor@example.com" });
  await admin.close();
});

test("without JavaScript an administrator saves Admin → Bank Sync's settings and starts a run", async ({ browser }) => {
  const context = await adminContext(browser, { javaScriptEnabled: false });
  const before = await (await context.request.get("/api/admin/bank-sync")).json();
  const page = await context.newPage();
  await page.goto("/admin/bank");
  const interval = page.getByLabel("Automatic sync every (hours)");
  await expect(interval).toHaveValue(String(before.intervalHours));
  await interval.fill("9");
  await page.getByRole("button", { name: "Save" }).click();
  // The server answers the browser's own post with the page again.
  await expect(page).toHaveURL(/\/admin\/bank\??$/);
  await expect(interval).toHaveValue("9");
  const saved = await (await context.request.get("/api/admin/bank-sync")).json();
  expect(saved.intervalHours).toBe(9);
  expect(saved.enabled).toBe(before.enabled);

  await page.getByRole("button", { name: "Run the automatic sync now" }).click();
  await expect(page).toHaveURL(/\/admin\/bank\??$/);
  await expect(page.getByTestId("bank-worker")).toBeVisible();

  const restored = await context.request.put("/api/admin/bank-sync", {
    headers: { "x-csrf-token": await csrf(context) },
    data: { enabled: before.enabled, intervalHours: before.intervalHours },
  });
  expect(restored.status()).toBe(200);
  await context.close();
});

test("without JavaScript Profile's preferences and privacy are saved, and a bad field is named", async ({ browser }) => {
  const { context, page } = await joinedWithoutScript(browser, "no-script-profile@example.com", "Pia");

  await page.goto("/profile");
  // The payday appears with a schedule counted from one, by the stylesheet.
  await expect(page.getByLabel("One payday")).toBeHidden();
  await page.getByLabel(/Pay schedule/).selectOption("biweekly");
  await expect(page.getByLabel("One payday")).toBeVisible();
  await page.getByLabel(/Pay schedule/).selectOption("");

  await page.getByLabel("Time zone (like Europe/Berlin)").fill("Mars/Olympus");
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page).toHaveURL(/\/profile/);
  await expect(page.locator("#timeZone-error")).not.toBeEmpty();
  await expect(page.getByLabel("Time zone (like Europe/Berlin)")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Time zone (like Europe/Berlin)").fill("Europe/Berlin");
  await page.getByLabel("Write amounts as in").selectOption("de-DE");
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page).toHaveURL(/\/profile\??$/);
  await expect(page.getByLabel("Time zone (like Europe/Berlin)")).toHaveValue("Europe/Berlin");
  await expect(page.getByLabel("Write amounts as in")).toHaveValue("de-DE");

  const privacy = page.getByLabel("Show where I signed in from");
  await expect(privacy).not.toBeChecked();
  await privacy.check();
  await page.getByRole("button", { name: "Save privacy" }).click();
  await expect(page).toHaveURL(/\/profile\??$/);
  await expect(page.getByLabel("Show where I signed in from")).toBeChecked();
  const read = await (await context.request.get("/api/profile/privacy")).json();
  expect(read.geolocationEnabled).toBe(true);
  await context.close();
});

test("without JavaScript a bill's page undoes a payment, ends, restarts, edits and deletes the bill", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-bill-page@example.com");
  const id = await addMonthlyBill(setup.context, { name: "Gym", amountMinor: 3000, anchorDate: "2026-12-01" });
  const paid = await setup.context.request.post(`/api/bills/${id}/payments`, {
    headers: { "x-csrf-token": await csrf(setup.context) },
    data: {},
  });
  expect(paid.status(), await paid.text()).toBe(201);
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();
  const facts = page.getByTestId("bill-facts");

  await page.goto(`/bills/${id}`);
  await expect(page.getByTestId("payment-row")).toHaveCount(1);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page).toHaveURL(new RegExp(`/bills/${id}\\??$`));
  await expect(page.getByTestId("payment-row")).toHaveCount(0);

  await page.getByLabel("Why it ended").fill("moved gyms");
  await page.getByRole("button", { name: "End this bill" }).click();
  await expect(facts).toContainText("Ended: moved gyms");
  await page.getByRole("button", { name: "Restart this bill" }).click();
  await expect(facts).toContainText("Active");

  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/bills/${id}\\?edit`));
  // The edit form sits in Manage (the payment form has an Amount too).
  await page.getByRole("region", { name: "Manage" }).getByLabel("Amount", { exact: true }).fill("35.00");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(new RegExp(`/bills/${id}$`));
  await expect(facts).toContainText("$35.00");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const ask = page.getByTestId("delete-confirm");
  await expect(ask).toContainText("Delete Gym for good?");
  await ask.getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByTestId("delete-confirm")).toHaveCount(0);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByTestId("delete-confirm").getByRole("button", { name: "Delete for good" }).click();
  await expect(page).toHaveURL(/\/bills$/);
  expect((await context.request.get(`/api/bills/${id}`)).status()).toBe(404);
  await context.close();
});

test("without JavaScript the operations viewer filters by state and kind through the address", async ({ browser }) => {
  const context = await adminContext(browser, { javaScriptEnabled: false });
  // A finished backup to find.
  const started = await context.request.post("/v1/admin:backup", {
    headers: { "x-csrf-token": await csrf(context) },
    data: {},
  });
  expect(started.status()).toBe(200);
  const name = (await started.json()).name as string;
  await expect
    .poll(async () => (await (await context.request.get(`/v1/${name}`)).json()).done, { timeout: 30_000 })
    .toBe(true);

  const page = await context.newPage();
  await page.goto("/operations");
  await page.getByLabel("State").selectOption("done");
  await page.getByLabel("Kind").selectOption("backup");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/operations\?state=done&kind=backup$/);
  // The page came back filtered, with the filter still chosen.
  await expect(page.getByLabel("State")).toHaveValue("done");
  await expect(page.getByLabel("Kind")).toHaveValue("backup");
  const rows = page.getByTestId("operation-row");
  await expect(rows.first()).toBeVisible();
  await expect(page.locator('[data-testid="operation-row"]:not([data-kind="backup"])')).toHaveCount(0);
  await expect(rows.locator(".op-state", { hasText: "Running" })).toHaveCount(0);

  await page.getByLabel("State").selectOption("running");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/operations\?state=running&kind=backup$/);
  await expect(page.getByLabel("State")).toHaveValue("running");
  await expect(rows.locator(".op-state", { hasText: "Succeeded" })).toHaveCount(0);

  // More than a page (20) of one kind: "Show more" opens the next page.
  const headers = { "x-csrf-token": await csrf(context) };
  const made: string[] = [];
  for (let i = 0; i < 21; i++) {
    const slept = await context.request.post("/v1/diagnostics:sleep", { headers, data: { duration: "0s" } });
    expect(slept.status()).toBe(200);
    made.push((await slept.json()).name);
  }
  await page.goto("/operations?kind=sleep");
  await expect(rows).toHaveCount(20);
  const newest = await rows.first().locator("pre").textContent();
  await page.getByRole("link", { name: "Show more" }).click();
  await expect(page).toHaveURL(/\/operations\?kind=sleep&page=/);
  await expect(rows.first()).toBeVisible();
  expect(await rows.first().locator("pre").textContent()).not.toBe(newest);
  for (const name of made) {
    expect((await context.request.delete(`/v1/${name}`, { headers })).status()).toBe(200);
  }
  await context.close();
});

test("without JavaScript Data → Bank Sync connects, switches an account, matches, ignores, disconnects and reconnects", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-bank@example.com");
  for (const bill of [
    { name: "Netflix", amountMinor: 1549, cadence: "monthly", dueDay: 5, anchorDate: "2026-01-05" },
    { name: "Power", amountMinor: 8420, cadence: "monthly", dueDay: 12, anchorDate: "2026-01-12", autopay: true },
  ]) {
    const added = await setup.context.request.post("/api/bills", { headers: { "x-csrf-token": await csrf(setup.context) }, data: bill });
    expect(added.status(), await added.text()).toBe(201);
  }
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();
  const connection = page.getByTestId("bank-connection");

  await page.goto("/data/bank");
  // A token that is not one: refused on the page, nothing connected.
  await page.getByLabel("Setup token").fill("not a token");
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: /setup token|https/i })).toBeVisible();
  await expect(connection).toHaveCount(0);

  await page.getByRole("button", { name: "Connect the demo bank" }).click();
  await expect(page).toHaveURL(/\/data\/bank\??$/);
  await expect(connection).toContainText("Demo Bank (not a real bank)");
  // The seed sync carries on after the answer: a later page has its transactions.
  await expect
    .poll(async () => {
      await page.goto("/data/bank");
      return page.getByTestId("bank-transactions").getByText("CITY POWER & LIGHT AUTOPAY").count();
    }, { timeout: 20_000 })
    .toBeGreaterThan(0);

  // An account out of syncing: the box and its Save button.
  await page.getByLabel("Sync Demo Checking").uncheck();
  await page.getByRole("button", { name: "Save whether Demo Checking syncs" }).click();
  await expect(page).toHaveURL(/\/data\/bank\??$/);
  await expect(page.getByLabel("Sync Demo Checking")).not.toBeChecked();
  await expect(page.getByLabel("Sync Demo Credit Card")).toBeChecked();
  await page.getByLabel("Sync Demo Checking").check();
  await page.getByRole("button", { name: "Save whether Demo Checking syncs" }).click();
  await expect(page.getByLabel("Sync Demo Checking")).toBeChecked();

  // Match the power debit to its bill, then undo it.
  const power = () => page.getByTestId("bank-transactions").locator("tr", { hasText: "CITY POWER & LIGHT AUTOPAY" }).first();
  await power().getByRole("combobox").selectOption({ label: "Power" });
  await power().getByRole("button", { name: "Match" }).click();
  await expect(page).toHaveURL(/\/data\/bank\??$/);
  await expect(power()).toContainText("Power");
  await power().getByRole("button", { name: "Unmatch" }).click();
  await expect(power().getByRole("button", { name: "Match" })).toBeVisible();

  // The Transactions page: a suggestion applied, a debit ignored and back.
  await page.goto("/data/transactions?q=NETFLIX");
  const netflix = page.getByTestId("transactions").locator("tr", { hasText: "NETFLIX.COM" }).first();
  await netflix.getByRole("button", { name: "Match to Netflix" }).click();
  await expect(page).toHaveURL(/\/data\/transactions\?q=NETFLIX$/);
  await expect(netflix.getByRole("button", { name: "Unmatch" })).toBeVisible();
  await page.goto("/data/transactions?q=BLUE%20BOTTLE");
  const coffee = page.getByTestId("transactions").locator("tbody tr").first();
  await coffee.getByRole("button", { name: /^Ignore BLUE BOTTLE/ }).click();
  await expect(coffee).toContainText("(ignored)");
  await coffee.getByRole("button", { name: /^Stop ignoring BLUE BOTTLE/ }).click();
  await expect(coffee).not.toContainText("(ignored)");

  // Sync now starts a sync; disconnect, then reconnect with the demo token.
  const syncs = async () =>
    ((await (await context.request.get("/v1/operations?filter=kind%3D%22bank_sync%22&pageSize=100")).json()).operations ?? []).length;
  const before = await syncs();
  await page.goto("/data/bank");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect(page).toHaveURL(/\/data\/bank\??$/);
  await expect.poll(syncs).toBe(before + 1);
  await page.getByRole("button", { name: "Disconnect" }).click();
  await expect(connection).toContainText("Disconnected");
  await page.getByLabel("New setup token").fill("demo");
  await page.getByRole("button", { name: "Reconnect" }).click();
  await expect(connection).toContainText("Connected");
  await expect(connection).toHaveCount(1);
  await context.close();
});

test("without JavaScript Admin invites (the link shown once), withdraws, disables and enables an account, and sets registration", async ({ browser }) => {
  await openRegistration(browser);
  const target = "no-script-admin-target@example.com";
  await (await newUser(browser, target)).context.close();
  const context = await adminContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/admin");

  // An invitation without the password is refused on the page.
  await page.getByLabel(/Their email/).fill("no-script-invited@example.com");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(page).toHaveURL(/\/admin\?form=/);
  await expect(page.getByRole("alert").filter({ hasText: /password/i })).toBeVisible();
  await page.getByLabel(/Their email/).fill("no-script-invited@example.com");
  await page.getByLabel("Your password, to invite").fill(PASSWORD);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  // The link, once, on a page of its own; never in the address.
  await expect(page.getByRole("heading", { name: "Invitation link" })).toBeVisible();
  expect(await page.getByTestId("invitation-link").textContent()).toMatch(/\/register\?invitation=[A-Za-z0-9_-]{43}$/);
  expectClean(page, [PASSWORD, "no-script-invited"]);
  await page.getByRole("link", { name: "Back to Administration" }).click();
  const invited = page.getByRole("listitem").filter({ hasText: "no-script-invited@example.com" });
  await expect(invited).toBeVisible();
  await invited.getByRole("button", { name: "Withdraw" }).click();
  await expect(page).toHaveURL(/\/admin\??$/);
  await expect(invited).toHaveCount(0);

  // The users table is one form: the pressed button says what, for whom.
  const users = page.getByRole("region", { name: "Users" });
  await page.getByRole("button", { name: `Disable ${target}` }).click();
  await expect(users.getByRole("alert")).toContainText(/password/i);
  await expect(page.getByRole("button", { name: `Disable ${target}` })).toBeVisible();
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: `Disable ${target}` }).click();
  await expect(page).toHaveURL(/\/admin\??$/);
  await expect(page.getByRole("button", { name: `Enable ${target}` })).toBeVisible();
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: `Enable ${target}` }).click();
  await expect(page.getByRole("button", { name: `Disable ${target}` })).toBeVisible();

  // Registration closed, then open again, each with the password.
  const state = page.getByTestId("registration-state");
  const box = page.getByLabel("Let anyone who can reach this Tally create an account");
  await expect(state).toContainText("Open");
  await box.uncheck();
  await page.getByLabel("Your password, to change registration").fill(PASSWORD);
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(state).toContainText("By invitation only");
  await expect(box).not.toBeChecked();
  await box.check();
  await page.getByLabel("Your password, to change registration").fill(PASSWORD);
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(state).toContainText("Open");
  await expect(box).toBeChecked();
  await context.close();
});

test("without JavaScript Admin → Backups takes and checks a backup, opens a restore, names refusals, and Status re-encrypts", async ({ browser }) => {
  const context = await adminContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  const backups = async () =>
    ((await (await context.request.get("/api/admin/backups")).json()).backups as { name: string }[]).map((file) => file.name);
  const operations = async (kind: string) =>
    ((await (await context.request.get(`/v1/operations?filter=kind%3D%22${kind}%22&pageSize=100`)).json()).operations ?? []).length;
  const before = await backups();

  await page.goto("/admin/backups");
  await page.getByRole("button", { name: "Take a backup" }).click();
  await expect(page).toHaveURL(/\/admin\/backups\??$/);
  await expect.poll(async () => (await backups()).length, { timeout: 30_000 }).toBe(before.length + 1);
  const name = (await backups()).find((file) => !before.includes(file))!;

  await page.goto("/admin/backups");
  const row = page.getByTestId("backup-files").locator("tr", { hasText: name });
  const checks = await operations("restore_check");
  await row.getByRole("button", { name: "Check" }).click();
  await expect(page).toHaveURL(/\/admin\/backups\??$/);
  await expect.poll(() => operations("restore_check")).toBe(checks + 1);

  // "Restore…" opens its form through the address; a wrong name is refused on the page.
  await page.getByTestId("backup-files").locator("tr", { hasText: name }).getByRole("button", { name: "Restore…" }).click();
  await expect(page).toHaveURL(/\/admin\/backups\?restore=bills-/);
  await page.getByLabel(`Type ${name} to confirm`).fill("not the name");
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Restore this backup" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `type the backup's name, ${name}` })).toBeVisible();
  expectClean(page, [PASSWORD]);
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/admin\/backups$/);
  await expect(page.getByRole("button", { name: "Restore this backup" })).toHaveCount(0);

  // Rolling back asks for the migration's name too.
  await page.getByLabel(/^Type .* to roll it back$/).fill("v0.01");
  await page.getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /v\d+\.\d+/ })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back" })).toHaveCount(0);

  // Admin → Status's maintenance button starts its operation.
  const sealed = await operations("reencrypt_secrets");
  await page.goto("/admin/status");
  await page.getByRole("button", { name: "Re-encrypt secrets" }).click();
  await expect(page).toHaveURL(/\/admin\/status\??$/);
  await expect.poll(() => operations("reencrypt_secrets")).toBe(sealed + 1);
  await context.close();
});

test("without JavaScript a recommendation is tracked, declined as not a subscription, and a refusal named", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-subscriber@example.com");
  const headers = { "x-csrf-token": await csrf(setup.context) };
  const connected = await setup.context.request.post("/api/bank/connections", { headers, data: { setupToken: "demo" } });
  expect(connected.status(), await connected.text()).toBe(201);
  const { operation } = await connected.json();
  const waited = await setup.context.request.post(`/v1/${operation.name}:wait`, { headers, data: { timeout: "20s" } });
  expect((await waited.json()).done).toBe(true);
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();

  await page.goto("/subscriptions");
  const netflix = page.locator('[data-testid="recommendation"][data-service="Netflix"]');
  await netflix.getByRole("button", { name: "Track Subscription" }).click();
  await expect(page).toHaveURL(/\/subscriptions\??$/);
  await expect(netflix).toHaveCount(0);
  await expect(page.getByTestId("subscription").filter({ hasText: "Netflix" })).toBeVisible();

  // The More menu opens without JavaScript (a details element).
  const spotify = page.locator('[data-testid="recommendation"][data-service="Spotify"]');
  await spotify.getByText("More ▾").click();
  await spotify.getByRole("button", { name: "Not a subscription" }).click();
  await expect(page).toHaveURL(/\/subscriptions\??$/);
  await expect(spotify).toHaveCount(0);
  const declined = await (await context.request.get("/api/subscriptions/recommendations")).json();
  expect(declined.recommendations.map((r: { serviceName: string }) => r.serviceName)).not.toContain("Spotify");

  // A recommendation gone meanwhile (tracked in another tab): the refusal is said on the page.
  const card = page.locator('[data-testid="recommendation"]').first();
  const id = await card.locator('input[name="id"]').first().getAttribute("value");
  const tracked = await context.request.post(`/api/subscriptions/recommendations/${id}/track`, {
    headers: { "x-csrf-token": await csrf(context) },
    data: {},
  });
  expect(tracked.status(), await tracked.text()).toBe(201);
  await card.getByRole("button", { name: /Track Subscription|Link Existing Bill/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toBeVisible();
  await context.close();
});

test("without JavaScript the Service Catalog tracks several services, re-links and unlinks a bill, and keeps a descriptor", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-catalog@example.com");
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();
  const tracked = page.getByTestId("tracked-services");
  const trackedRow = (name: string) => tracked.locator("tr").filter({ has: page.getByRole("link", { name, exact: true }) });

  // Nothing picked: the server says so on the page.
  await page.goto("/subscriptions/catalog");
  await page.getByRole("button", { name: "Track selected" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /choose|at least|1 to/i })).toBeVisible();

  // Two picked boxes go with "Track selected" (they belong to its form).
  await page.goto("/subscriptions/catalog");
  const services = page.getByTestId("catalog-services");
  const names = (await services.locator("tbody tr td:nth-child(2)").allTextContents()).slice(0, 2);
  for (const name of names) await page.getByLabel(`Pick ${name}`, { exact: true }).check();
  await page.getByRole("button", { name: "Track selected" }).click();
  await expect(page).toHaveURL(/\/subscriptions\/catalog\??$/);
  for (const name of names) await expect(trackedRow(name)).toBeVisible();

  // One row's own Track button tracks that service alone.
  await page.goto("/subscriptions/catalog?q=disney");
  await page.getByTestId("catalog-services").getByRole("button", { name: "Track Disney+", exact: true }).click();
  await expect(page).toHaveURL(/\/subscriptions\/catalog\?q=disney$/);
  await expect(trackedRow("Disney+")).toBeVisible();
  await expect(tracked.locator("tbody tr")).toHaveCount(names.includes("Disney+") ? 2 : 3);

  // Re-link the first bill to Disney+, then unlink it.
  const first = names[0];
  await trackedRow(first).getByLabel(`Service of ${first}`).selectOption({ label: "Disney+" });
  await trackedRow(first).getByRole("button", { name: "Re-link" }).click();
  await expect(trackedRow(first)).toContainText("Disney+");
  await trackedRow(first).getByRole("button", { name: `Unlink ${first}` }).click();
  await expect(trackedRow(first)).toHaveCount(0);

  // A descriptor of one's own, then forgotten.
  await page.getByLabel("Descriptor").fill("PF CLUB FEES 0412");
  await page.getByLabel("is", { exact: true }).selectOption({ label: "Disney+" });
  await page.getByRole("button", { name: "Add descriptor" }).click();
  await expect(page.getByTestId("own-descriptors")).toContainText("PF CLUB FEES 0412");
  await page.getByRole("button", { name: "Delete PF CLUB FEES 0412" }).click();
  await expect(page.getByTestId("own-descriptors")).toHaveCount(0);
  expectClean(page, ["PF CLUB"]);
  await context.close();
});

test("without JavaScript Profile signs out, and the session is over", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-sign-out@example.com");
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();
  await page.goto("/profile");
  expect((await context.request.get("/api/auth/me")).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.request.get("/api/auth/me")).status()).toBe(401);
  await page.goto("/profile");
  await expect(page.getByText("You are signed out.")).toBeVisible();
  await context.close();
});

test("without JavaScript the tracked subscriptions move up and down, and the order is kept", async ({ browser }) => {
  await openRegistration(browser);
  const setup = await newUser(browser, "no-script-order@example.com");
  const token = await csrf(setup.context);
  for (const [name, cadence, amountMinor] of [
    ["Music", "monthly", 999],
    ["Cloud storage", "yearly", 12_000],
    ["News", "monthly", 500],
  ] as const) {
    const made = await setup.context.request.post("/api/bills", {
      headers: { "x-csrf-token": token },
      data: { name, amountMinor, cadence, dueDay: 3, anchorDate: "2026-01-03", subscription: true, category: "Streaming" },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  const context = await browser.newContext({ storageState: await setup.context.storageState(), javaScriptEnabled: false });
  await setup.context.close();
  const page = await context.newPage();
  await page.goto("/subscriptions");
  const names = page.getByTestId("subscription").getByRole("link");
  await expect(names).toHaveText(["Music", "Cloud storage", "News"]);
  await expect(page.getByRole("button", { name: "Move Music up" })).toBeDisabled();

  await page.getByRole("button", { name: "Move News up" }).click();
  await expect(page).toHaveURL(/\/subscriptions\??$/);
  await expect(names).toHaveText(["Music", "News", "Cloud storage"]);
  await page.getByRole("button", { name: "Move Music down" }).click();
  await expect(names).toHaveText(["News", "Music", "Cloud storage"]);
  // Kept by the server, not by this page.
  await page.goto("/subscriptions");
  await expect(names).toHaveText(["News", "Music", "Cloud storage"]);
  // The sort switch is two links: grouped by cadence, nothing to move.
  await page.getByRole("link", { name: "Cadence" }).click();
  await expect(page).toHaveURL(/\/subscriptions\?sort=cadence$/);
  await expect(page.getByRole("link", { name: "Cadence" })).toHaveAttribute("aria-current", "page");
  const tracked = page.getByRole("region", { name: "Tracked Subscriptions" });
  await expect(tracked.getByRole("heading", { level: 3 })).toHaveText(["Monthly", "Yearly"]);
  await expect(page.getByRole("button", { name: /^Move / })).toHaveCount(0);
  await page.getByRole("link", { name: "Custom" }).click();
  await expect(names).toHaveText(["News", "Music", "Cloud storage"]);
  await context.close();
});

test("Admin searches the leads and the support requests through the address, without JavaScript and with it", async ({ browser }) => {
  // One of each from a visitor (the public forms allow five a minute from
  // one address; a refusal says when to come back).
  const visitor = await browser.newContext();
  for (const [path, data] of [
    ["/api/leads", { name: "Lena Listed", email: "lena@example.com", message: "We track forty bills." }],
    ["/api/support", { name: "Sam Support", email: "sam@example.com", subject: "Import fails", message: "Row 3 is refused." }],
  ] as const) {
    let sent = await visitor.request.post(path, { data });
    if (sent.status() === 429) {
      await new Promise((done) => setTimeout(done, 1000 * Number(sent.headers()["retry-after"] ?? "60")));
      sent = await visitor.request.post(path, { data });
    }
    expect(sent.status(), await sent.text()).toBe(201);
  }
  await visitor.close();

  const context = await adminContext(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/admin");
  const card = page.getByRole("region", { name: "Leads and support requests" });
  const rows = card.getByTestId("submissions").locator("tbody tr");
  await expect(card.getByTestId("crm-health")).toContainText("CRM not configured");
  await expect(card.getByRole("link", { name: "Leads" })).toHaveAttribute("aria-current", "page");
  await expect(rows.filter({ hasText: "Lena Listed" })).toHaveCount(1);

  await card.getByLabel("Search").fill("nobody by this name");
  await card.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/admin\?q=nobody/);
  await expect(rows).toHaveCount(0);
  await card.getByLabel("Search").fill("Lena Listed");
  await card.getByRole("button", { name: "Search" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("lena@example.com");
  await expect(rows).toContainText("skipped");

  await card.getByRole("link", { name: "Support requests" }).click();
  await expect(page).toHaveURL(/\/admin\?submissions=support#submissions$/);
  await expect(card.getByRole("link", { name: "Support requests" })).toHaveAttribute("aria-current", "page");
  await expect(card.getByRole("columnheader", { name: "Subject" })).toBeVisible();
  await expect(rows.filter({ hasText: "Sam Support" })).toContainText("Import fails");
  await expect(rows.filter({ hasText: "Lena Listed" })).toHaveCount(0);
  // The search stays on this list.
  await card.getByLabel("Search").fill("Sam Support");
  await card.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/submissions=support&q=Sam/);
  await expect(rows).toHaveCount(1);

  // Re-send all failed: the form posts, and the page comes back to the list.
  await card.getByRole("button", { name: "Re-send all failed" }).click();
  await expect(page).toHaveURL(/submissions=support&q=Sam/);
  await expect(rows).toHaveCount(1);
  await expect(card.getByRole("alert")).toHaveText("");
  await context.close();

  // With JavaScript the same links reload the list alone, and Re-send
  // all failed answers on the page.
  const live = await adminContext(browser);
  const livePage = await live.newPage();
  await livePage.goto("/admin");
  await hydrated(livePage);
  const liveCard = livePage.getByRole("region", { name: "Leads and support requests" });
  await liveCard.getByRole("link", { name: "Support requests" }).click();
  await expect(liveCard.getByRole("columnheader", { name: "Subject" })).toBeVisible();
  await expect(liveCard.getByTestId("submissions").locator("tbody tr").filter({ hasText: "Sam Support" })).toHaveCount(1);
  await liveCard.getByRole("button", { name: "Re-send all failed" }).click();
  await expect(livePage).toHaveURL(/\/admin\?submissions=support#submissions$/);
  await expect(liveCard.getByRole("alert")).toHaveText("");
  await live.close();
});
