// Security-key ceremonies for Tally's WASM bundle. The server (webauthn-rs)
// sends options as JSON with base64url binary fields; the browser's
// WebAuthn API wants ArrayBuffers, and the answer goes back as JSON again.
// The Rust side calls window.tallyWebauthn.register / .authenticate with the
// options as a JSON string and gets the credential as a JSON string.
"use strict";
(() => {
  function toBuffer(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
  }

  function toText(buffer) {
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // webauthn-rs asks for credProtect "userVerificationRequired" together with
  // userVerification "preferred", a pair Chromium refuses before it talks to
  // the key (kanidm/webauthn-rs#490). Dropping the extension keeps "preferred".
  function withoutCredProtect(extensions) {
    if (!extensions) return extensions;
    const { credentialProtectionPolicy, enforceCredentialProtectionPolicy, ...rest } = extensions;
    return rest;
  }

  async function register(optionsJson) {
    const options = JSON.parse(optionsJson).publicKey;
    const credential = await navigator.credentials.create({
      publicKey: {
        ...options,
        extensions: withoutCredProtect(options.extensions),
        challenge: toBuffer(options.challenge),
        user: { ...options.user, id: toBuffer(options.user.id) },
        excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: toBuffer(c.id) })),
      },
    });
    const response = credential.response;
    return JSON.stringify({
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        attestationObject: toText(response.attestationObject),
        clientDataJSON: toText(response.clientDataJSON),
        transports: response.getTransports ? response.getTransports() : undefined,
      },
      extensions: credential.getClientExtensionResults(),
    });
  }

  async function authenticate(optionsJson) {
    const options = JSON.parse(optionsJson).publicKey;
    const credential = await navigator.credentials.get({
      publicKey: {
        ...options,
        challenge: toBuffer(options.challenge),
        allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: toBuffer(c.id) })),
      },
    });
    const response = credential.response;
    return JSON.stringify({
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        authenticatorData: toText(response.authenticatorData),
        clientDataJSON: toText(response.clientDataJSON),
        signature: toText(response.signature),
        userHandle: response.userHandle ? toText(response.userHandle) : null,
      },
      extensions: credential.getClientExtensionResults(),
    });
  }

  window.tallyWebauthn = {
    supported: () => !!(window.PublicKeyCredential && navigator.credentials),
    register,
    authenticate,
  };
})();
