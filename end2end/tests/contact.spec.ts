import { expect, test } from "@playwright/test";
import { ADMIN, PASSWORD } from "./support";

test("a visitor sends the contact form after fixing a mistake, and the lead is stored", async ({ page, request }, testInfo) => {
  await page.goto("/contact");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Talk to us about Tally");
  // Configuration is for the operator (Admin → Status), not the visitor.
  await expect(page.getByText(/CAPTCHA|Development setup|bot check is off/)).toHaveCount(0);

  await page.getByLabel("Your name").fill("Margaret Hamilton");
  await page.getByLabel("Email").fill("margaret@example");
  await page.getByLabel("How can we help?").fill("We track the bills of a twelve-person flat share.");
  await page.getByRole("button", { name: "Send" }).click();

  // The shared rule catches the address before anything is sent.
  const email = page.getByLabel("Email");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#email-error")).toHaveText("enter an address like name@example.com");
  await expect(page.getByRole("alert")).toContainText("fix the marked fields");
  await page.screenshot({ path: testInfo.outputPath("contact-error.png"), fullPage: true });

  await email.fill("margaret@example.com");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("contact-sent")).toContainText("We will reply to margaret@example.com.");
  await page.screenshot({ path: testInfo.outputPath("contact-sent.png"), fullPage: true });

  // The row is in the database: an admin finds it.
  const csrf = (await (await request.get("/api/auth/csrf-token")).json()).csrfToken;
  const login = await request.post("/api/auth/login", {
    headers: { "x-csrf-token": csrf },
    data: { email: ADMIN, password: PASSWORD },
  });
  expect((await login.json()).user?.email).toBe(ADMIN);
  const leads = await (await request.get("/api/admin/leads?search=Hamilton")).json();
  expect(leads.items).toHaveLength(1);
  expect(leads.items[0]).toMatchObject({ email: "margaret@example.com", crmState: "skipped" });
});

test("with a bot check configured, the visitor completes the widget and the server verifies it", async ({ page, request }, testInfo) => {
  const site = `http://localhost:${process.env.E2E_CAPTCHA_PORT}`;
  const provider = `http://127.0.0.1:${process.env.FAKE_CAPTCHA_PORT}`;
  // Arrive on the home page and move to the form inside the app: the widget
  // must load after a client-side navigation too.
  await page.goto(`${site}/`);
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByRole("navigation").getByRole("link", { name: "Contact" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Talk to us about Tally");
  const human = page.getByRole("group", { name: "Bot check" }).getByLabel("I am human");
  await expect(human).toBeVisible();
  await expect(page.getByTestId("bot-check-off")).toHaveCount(0);

  await page.getByLabel("Your name").fill("Katherine Johnson");
  await page.getByLabel("Email").fill("katherine@example.com");
  await page.getByLabel("How can we help?").fill("Trajectories, and the household bills.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("#captchaToken-error")).toHaveText("complete the bot check first");
  expect(await (await request.get(`${provider}/calls`)).json()).toHaveLength(0);

  await human.check();
  await page.screenshot({ path: testInfo.outputPath("contact-bot-check.png"), fullPage: true });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("contact-sent")).toContainText("We will reply to katherine@example.com.");

  const calls = await (await request.get(`${provider}/calls`)).json();
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ secret: "e2e-captcha-secret", remoteip: "127.0.0.1" });
  expect(calls[0].response).toMatch(/^solved-e2e-site-key-/);
});

test("the support form marks every missing field, then sends a complete request", async ({ page }) => {
  await page.goto("/support");
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("#name-error")).toHaveText("enter your name");
  await expect(page.locator("#subject-error")).toHaveText("enter a subject");
  await page.getByLabel("Your name").fill("Grace");
  await page.getByLabel("Email").fill("grace@example.com");
  await page.getByLabel("Subject").fill("Import");
  await page.getByLabel("Category").selectOption("problem");
  await page.getByLabel("What happened?").fill("Row 3 of my CSV is refused.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("support-sent")).toContainText(/Request #\d+ received/);
});

test("the marketing pages render without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [path, heading] of [
    ["/features", "What Tally does"],
    ["/pricing", "Pricing"],
    ["/privacy", "Privacy"],
    ["/contact", "Talk to us about Tally"],
  ]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  }
  await context.close();
});
