#!/usr/bin/env python3
"""A real SMTP server on loopback for the email notification tests.

    .venv/bin/python scripts/smtp-test-server.py --mode {starttls,tls,none} --dir DIR [--auth USER:PASSWORD]

Binds 127.0.0.1 on a free port and prints exactly one line, `READY <port>`,
to stdout once it accepts connections (nothing else is ever printed there;
diagnostics go to stderr).

Modes:
  starttls  plain connection offering STARTTLS, which is required before
            anything but EHLO/HELO/NOOP/QUIT
  tls       implicit TLS from the first byte (SMTPS)
  none      no TLS at all

The certificate is issued by a throwaway CA for `localhost` (SANs
DNS:localhost and IP:127.0.0.1), generated with the `openssl` command when it
exists, else with Python's `cryptography` package; the files are reused when
DIR already has them. The CA certificate (what a client must trust) is
DIR/ca.pem. A separate CA is used, not a self-signed leaf, because rustls
(webpki) rejects a CA certificate presented as the server's own.

With --auth, AUTH PLAIN or LOGIN with exactly those credentials is required
before MAIL; in modes starttls it is only offered after STARTTLS.

Every message received is appended to DIR/messages.jsonl as one JSON line:
  {"mail_from": str, "rcpt_tos": [str], "data": str (raw message, UTF-8 with
   errors replaced), "tls": bool (the session was under TLS at DATA),
   "authenticated": str | null (the login name, when authenticated)}
each written with flush + fsync.

Exits (status 0) on SIGTERM, SIGINT, or end of file on stdin, so a test
process that dies (closing the pipe) takes the server with it. Run by hand,
keep stdin open (a terminal, or `sleep infinity |`).
"""

import argparse
import asyncio
import json
import logging
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import warnings

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:
    sys.stderr.write(
        "smtp-test-server: the aiosmtpd package is missing from this Python "
        f"({sys.executable}); run scripts/setup.sh\n"
    )
    sys.exit(2)

CA_PEM = "ca.pem"
CA_KEY = "ca-key.pem"
SERVER_PEM = "server.pem"
SERVER_KEY = "server-key.pem"
MESSAGES = "messages.jsonl"


def log(message):
    sys.stderr.write(f"smtp-test-server: {message}\n")
    sys.stderr.flush()


# --- certificate -------------------------------------------------------------


def have_certificate(directory):
    return all(
        os.path.isfile(os.path.join(directory, name)) and os.path.getsize(os.path.join(directory, name)) > 0
        for name in (CA_PEM, SERVER_PEM, SERVER_KEY)
    )


def generate_with_openssl(openssl, work):
    def run(*args):
        result = subprocess.run(
            [openssl, *args], cwd=work, stdin=subprocess.DEVNULL, capture_output=True, text=True
        )
        if result.returncode != 0:
            raise RuntimeError(f"openssl {' '.join(args)} failed:\n{result.stdout}{result.stderr}")

    with open(os.path.join(work, "ca.ext"), "w") as f:
        f.write(
            "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = Tally test CA\n"
            "[ca]\nbasicConstraints = critical, CA:TRUE\n"
            "keyUsage = critical, keyCertSign, cRLSign\n"
            "subjectKeyIdentifier = hash\n"
        )
    with open(os.path.join(work, "server.ext"), "w") as f:
        f.write(
            "basicConstraints = critical, CA:FALSE\n"
            "keyUsage = critical, digitalSignature, keyEncipherment\n"
            "extendedKeyUsage = serverAuth\n"
            "subjectAltName = DNS:localhost, IP:127.0.0.1\n"
            "subjectKeyIdentifier = hash\n"
            "authorityKeyIdentifier = keyid\n"
        )
    run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", CA_KEY)
    run("req", "-new", "-x509", "-config", "ca.ext", "-extensions", "ca", "-key", CA_KEY,
        "-sha256", "-days", "3650", "-out", CA_PEM)
    run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "server-key.sec1")
    # PKCS#8, which every client and Python's ssl accept.
    run("pkcs8", "-topk8", "-nocrypt", "-in", "server-key.sec1", "-out", SERVER_KEY)
    run("req", "-new", "-key", SERVER_KEY, "-subj", "/CN=localhost", "-out", "server.csr")
    run("x509", "-req", "-in", "server.csr", "-CA", CA_PEM, "-CAkey", CA_KEY, "-CAcreateserial",
        "-sha256", "-days", "3650", "-extfile", "server.ext", "-out", SERVER_PEM)


def generate_with_cryptography(work):
    try:
        import cryptography  # noqa: F401
    except ImportError:
        log("no openssl command and no cryptography package; installing cryptography")
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--no-input", "cryptography"],
            stdin=subprocess.DEVNULL, stdout=sys.stderr, check=True,
        )
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)
    later = now + datetime.timedelta(days=3650)

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tally test CA")])
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True,
                          crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=True,
                          data_encipherment=False, key_agreement=False, key_cert_sign=False,
                          crl_sign=False, encipher_only=False, decipher_only=False),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )

    def write(name, data):
        with open(os.path.join(work, name), "wb") as f:
            f.write(data)

    pkcs8 = dict(encoding=serialization.Encoding.PEM, format=serialization.PrivateFormat.PKCS8,
                 encryption_algorithm=serialization.NoEncryption())
    write(CA_KEY, ca_key.private_bytes(**pkcs8))
    write(CA_PEM, ca_cert.public_bytes(serialization.Encoding.PEM))
    write(SERVER_KEY, key.private_bytes(**pkcs8))
    write(SERVER_PEM, cert.public_bytes(serialization.Encoding.PEM))


def ensure_certificate(directory):
    """The certificate files in `directory`, generated unless already there."""
    if have_certificate(directory):
        return
    with tempfile.TemporaryDirectory(dir=directory, prefix=".cert-") as work:
        openssl = shutil.which("openssl")
        if openssl:
            generate_with_openssl(openssl, work)
        else:
            generate_with_cryptography(work)
        # The key and certificate first, the CA (the one a reader waits for) last.
        for name in (CA_KEY, SERVER_KEY, SERVER_PEM, CA_PEM):
            os.replace(os.path.join(work, name), os.path.join(directory, name))


def server_context(directory):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(os.path.join(directory, SERVER_PEM), os.path.join(directory, SERVER_KEY))
    return context


# --- SMTP --------------------------------------------------------------------


def clean(text):
    """`text` as valid UTF-8: aiosmtpd decodes 8-bit addresses with
    surrogateescape, which neither UTF-8 nor JSON readers accept."""
    if text is None:
        return ""
    return str(text).encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")


class Recorder:
    """Appends each message to messages.jsonl."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        transport = server.transport
        under_tls = session.ssl is not None or (
            transport is not None and transport.get_extra_info("ssl_object") is not None
        )
        login = None
        if session.authenticated:
            login = session.auth_data
            if isinstance(login, bytes):
                login = login.decode("utf-8", errors="replace")
            login = clean(login)
        raw = envelope.original_content
        if raw is None:
            raw = envelope.content if isinstance(envelope.content, bytes) else b""
        record = {
            "mail_from": clean(envelope.mail_from),
            "rcpt_tos": [clean(rcpt) for rcpt in envelope.rcpt_tos],
            "data": raw.decode("utf-8", errors="replace"),
            "tls": bool(under_tls),
            "authenticated": login,
        }
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        with self.lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                view = memoryview(line)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)
        return "250 OK"


def make_authenticator(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        if mechanism not in ("PLAIN", "LOGIN") or not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", errors="replace")
        given = auth_data.password.decode("utf-8", errors="replace")
        if login == user and given == password:
            return AuthResult(success=True, auth_data=login)
        return AuthResult(success=False, handled=False)

    return authenticate


class QuietKnownWarnings(logging.Filter):
    # Mode tls needs auth_require_tls=False (see serve), which aiosmtpd warns
    # about on every connection; and it trips its own deprecation of
    # Session.login_data on every AUTH.
    KNOWN = (
        "auth_required == True but auth_require_tls == False",
        "Session.login_data is deprecated",
    )

    def filter(self, record):
        message = record.getMessage()
        return not any(known in message for known in self.KNOWN)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", required=True, choices=("starttls", "tls", "none"))
    parser.add_argument("--dir", required=True, help="certificate and messages.jsonl directory")
    parser.add_argument("--auth", metavar="USER:PASSWORD", help="require AUTH PLAIN/LOGIN")
    args = parser.parse_args(argv)
    if args.auth is not None and ":" not in args.auth:
        parser.error("--auth takes USER:PASSWORD")
    return args


async def serve(args):
    directory = os.path.abspath(args.dir)
    os.makedirs(directory, exist_ok=True)
    context = None
    if args.mode != "none":
        ensure_certificate(directory)
        context = server_context(directory)

    recorder = Recorder(os.path.join(directory, MESSAGES))
    smtp_kwargs = dict(hostname="localhost", enable_SMTPUTF8=True)
    if args.mode == "starttls":
        smtp_kwargs.update(tls_context=context, require_starttls=True)
    if args.auth is not None:
        user, password = args.auth.split(":", 1)
        smtp_kwargs.update(
            authenticator=make_authenticator(user, password),
            auth_required=True,
            # aiosmtpd only counts STARTTLS as TLS here (its _tls_protocol),
            # so with implicit TLS it would never offer AUTH; that connection
            # is TLS from the first byte anyway.
            auth_require_tls=(args.mode == "starttls"),
        )
    else:
        smtp_kwargs.update(auth_require_tls=(args.mode == "starttls"))

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    def watch_stdin():
        # os.read on the descriptor, not sys.stdin: a daemon thread blocked
        # inside the buffered reader holds its lock, which aborts the
        # interpreter at shutdown.
        try:
            while os.read(0, 65536):
                pass
        except OSError:
            pass
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=watch_stdin, name="stdin-watch", daemon=True).start()

    server = await loop.create_server(
        lambda: SMTP(recorder, **smtp_kwargs),
        host="127.0.0.1",
        port=0,
        ssl=context if args.mode == "tls" else None,
    )
    port = server.sockets[0].getsockname()[1]
    sys.stdout.write(f"READY {port}\n")
    sys.stdout.flush()
    log(f"mode {args.mode} on 127.0.0.1:{port}, messages in {recorder.path}")

    await stop.wait()
    server.close()
    try:
        await asyncio.wait_for(server.wait_closed(), timeout=2)
    except asyncio.TimeoutError:
        pass


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="smtp-test-server: %(name)s %(levelname)s %(message)s")
    logging.getLogger("mail.log").addFilter(QuietKnownWarnings())
    warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
    asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
