// A real OpenID provider for Tally's tests: `oidc-provider` (an
// OpenID-certified implementation) on loopback, with its development
// sign-in pages (any login name; the password is not checked) and one
// client registered for Tally. Never a mock: the tests go through its
// discovery, authorization, token, userinfo and key endpoints.
//
//   node provider.mjs <port> <tally base URL>
//
// The login name picks the person: their claims come from the JSON in
// OIDC_TEST_ACCOUNTS ({"alice": {"email": …, "email_verified": true,
// "groups": […]}}), or default to <name>@example.com, verified, no groups.
// POST /test/rotate-keys replaces the signing key (key rotation);
// POST /test/claims {"login": …, "claims": {…}} changes a person's claims.
// Prints "issuer <url>" once listening.
import { createServer } from "node:http";
import { generateKeyPairSync } from "node:crypto";
import Provider from "oidc-provider";

const [port, tally] = process.argv.slice(2);
let accounts = JSON.parse(process.env.OIDC_TEST_ACCOUNTS ?? "{}");
const issuer = `http://127.0.0.1:${port}`;

let keyNumber = 0;
function signingKey() {
  keyNumber += 1;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: `key-${keyNumber}`, use: "sig", alg: "RS256" };
}

function configuration(keys) {
  return {
    clients: [
      {
        client_id: "tally",
        client_secret: "tally-test-client-secret",
        redirect_uris: [`${tally}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${tally}/login`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
      groups: ["groups"],
    },
    scopes: ["openid", "email", "profile", "groups"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    cookies: { keys: ["tally-test-cookie-key"] },
    async findAccount(_ctx, sub) {
      const claims = accounts[sub] ?? { email: `${sub}@example.com`, email_verified: true, groups: [] };
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
  };
}

let keys = [signingKey()];
let provider = new Provider(issuer, configuration(keys));
provider.proxy = false;

const server = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/test/rotate-keys") {
    // The new key signs from now on; the old one is no longer published.
    keys = [signingKey()];
    provider = new Provider(issuer, configuration(keys));
    response.writeHead(204).end();
    return;
  }
  if (request.method === "POST" && request.url === "/test/claims") {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const { login, claims } = JSON.parse(body);
      accounts = { ...accounts, [login]: claims };
      response.writeHead(204).end();
    });
    return;
  }
  provider.callback()(request, response);
});
server.listen(Number(port), "127.0.0.1", () => {
  console.log(`issuer ${issuer}`);
});
