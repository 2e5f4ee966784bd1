#!/usr/bin/env python3
"""Compatibility test of Tally's long-running operations REST API.

Drives a running Tally with Google's own Python client for
google.longrunning.Operations (google-api-core's ``operations_v1``
AbstractOperationsClient over its REST transport) and with plain HTTP, and
decodes every operation with message classes compiled from
proto/tally/v1/operations.proto by grpcio-tools' protoc.

    bash compat/setup_venv.sh
    .venv/bin/python compat/operations_client.py --base http://127.0.0.1:PORT --token TOKEN

The token must be an administrator's API token on a server started with
TALLY_DIAGNOSTICS=1 (POST /v1/diagnostics:sleep starts the operations this test
works on). It prints one line per check and closes with
``operations: N passed, N failed``; the exit code is 0 only when every check
passed (1 when one failed, 2 when the test could not start at all).

Nothing is downloaded at run time: everything comes from the venv.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional

import requests
from google.api_core import exceptions as gexc
from google.api_core import operations_v1
from google.auth import credentials as ga_credentials
from google.auth import exceptions as auth_exceptions
from google.longrunning import operations_pb2
from google.oauth2 import credentials as oauth2_credentials
from google.protobuf import any_pb2, descriptor_pb2, json_format
from google.rpc import status_pb2

REPO = Path(__file__).resolve().parent.parent
PROTO_ROOT = REPO / "proto"
TALLY_PROTO = "tally/v1/operations.proto"

TYPE_PREFIX = "type.googleapis.com/"
SLEEP_METADATA = "tally.v1.SleepMetadata"
SLEEP_RESPONSE = "tally.v1.SleepResponse"
NAME_RE = re.compile(r"^operations/[0-9a-f]{32}$")
CANCELLED = 1  # google.rpc.Code.CANCELLED

# Tally's bindings of google.longrunning.Operations (see the header of
# proto/tally/v1/operations.proto). The library's own defaults are
# /v1/{name=**}/operations and /v1/{name=**/operations/*}..., so they are
# overridden here. CancelOperation must keep `"body": "*"`: the transport reads
# transcoded_request["body"] unconditionally (KeyError without it), and then
# sends the (empty) body with `Content-Type: application/json`.
HTTP_OPTIONS: Dict[str, List[Dict[str, str]]] = {
    "google.longrunning.Operations.ListOperations": [
        {"method": "get", "uri": "/v1/{name=operations}"},
        {"method": "get", "uri": "/v1/{name=users/*}/operations"},
    ],
    "google.longrunning.Operations.GetOperation": [
        {"method": "get", "uri": "/v1/{name=operations/*}"},
    ],
    "google.longrunning.Operations.DeleteOperation": [
        {"method": "delete", "uri": "/v1/{name=operations/*}"},
    ],
    "google.longrunning.Operations.CancelOperation": [
        {"method": "post", "uri": "/v1/{name=operations/*}:cancel", "body": "*"},
    ],
}

OPERATION_KEYS = {"name", "metadata", "done"}
ERROR_KEYS = {"code", "message", "status", "details"}
LIST_KEYS = {"operations", "nextPageToken", "unreachable"}


class Abort(Exception):
    """A check that later checks depend on failed."""


# --------------------------------------------------------------------------
# Reporting


class Report:
    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.passed = 0
        self.failed = 0

    def check(self, title: str, fn: Callable[[], Any], *, critical: bool = False) -> Any:
        """Runs one check; prints `PASS title[: detail]` or `FAIL title: why`.

        `fn` may return a string (a detail for the PASS line) or a tuple
        (detail, value); the value is what `check` returns. A failure returns
        None, or raises Abort when `critical`.
        """
        try:
            result = fn()
        except AssertionError as error:
            self.failed += 1
            print(f"FAIL  {title}: {error}", flush=True)
            if self.verbose:
                traceback.print_exc()
            if critical:
                raise Abort(title) from error
            return None
        except Abort:
            raise
        except Exception as error:  # anything else is a failure too, with its type
            self.failed += 1
            print(f"FAIL  {title}: {type(error).__module__}.{type(error).__name__}: {error}",
                  flush=True)
            if self.verbose:
                traceback.print_exc()
            if critical:
                raise Abort(title) from error
            return None
        detail, value = (result if isinstance(result, tuple) else (result, None))
        self.passed += 1
        print(f"PASS  {title}" + (f": {detail}" if detail else ""), flush=True)
        return value


# --------------------------------------------------------------------------
# Compiling proto/tally/v1/operations.proto


def _package_root(module: str) -> Path:
    """The site-packages directory that holds `module` (a dotted name)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, f"{module} is not installed"
    return Path(spec.origin).resolve().parents[module.count(".")]


def compile_protos(workdir: Path):
    """Compiles tally/v1/operations.proto with grpcio-tools' protoc.

    Writes a descriptor set (with imports) and Python modules into `workdir`,
    imports the generated module (which registers the tally.v1 messages in
    protobuf's default descriptor pool, where json_format and the Google
    client resolve Any `@type`s) and returns (module, FileDescriptorSet).
    """
    grpc_tools_proto = _package_root("grpc_tools.protoc") / "grpc_tools" / "_proto"
    assert (grpc_tools_proto / "google/protobuf/duration.proto").is_file(), (
        f"grpcio-tools ships no google/protobuf/*.proto under {grpc_tools_proto}")

    # googleapis-common-protos ships the .proto sources next to its modules,
    # but google/longrunning/operations.proto under the name
    # operations_proto.proto (the module operations_pb2 is a compatibility
    # shim). The Python descriptor it registers is named
    # google/longrunning/operations.proto, so that is the name protoc must see:
    # an overlay directory holds the file under its canonical name.
    common_root = _package_root("google.longrunning.operations_proto_pb2")
    overlay = workdir / "overlay"
    canonical = common_root / "google/longrunning/operations.proto"
    if not canonical.is_file():
        shipped = common_root / "google/longrunning/operations_proto.proto"
        assert shipped.is_file(), (
            f"googleapis-common-protos ships neither {canonical} nor {shipped}")
        target = overlay / "google/longrunning/operations.proto"
        target.parent.mkdir(parents=True)
        shutil.copyfile(shipped, target)
    assert (common_root / "google/rpc/status.proto").is_file(), (
        f"googleapis-common-protos ships no google/rpc/status.proto under {common_root}")

    out = workdir / "py"
    out.mkdir()
    descriptor_set = workdir / "tally.desc"
    includes = [PROTO_ROOT, overlay, grpc_tools_proto, common_root]
    command = [
        sys.executable, "-m", "grpc_tools.protoc",
        *[f"-I{path}" for path in includes if path.is_dir()],
        f"--python_out={out}",
        f"--descriptor_set_out={descriptor_set}",
        "--include_imports",
        TALLY_PROTO,
    ]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    assert run.returncode == 0, (
        f"protoc failed ({run.returncode}): {run.stderr.strip() or run.stdout.strip()}")

    files = descriptor_pb2.FileDescriptorSet()
    files.ParseFromString(descriptor_set.read_bytes())
    sys.path.insert(0, str(out))
    module = importlib.import_module("tally.v1.operations_pb2")
    return module, files


def check_compiled(tally_pb2, files) -> str:
    by_name = {f.name: f for f in files.file}
    assert TALLY_PROTO in by_name, f"{TALLY_PROTO} missing from the descriptor set"
    tally_file = by_name[TALLY_PROTO]
    messages = {f"tally.v1.{m.name}" for m in tally_file.message_type}
    for wanted in (SLEEP_METADATA, SLEEP_RESPONSE, "tally.v1.OperationProgress",
                   "tally.v1.SleepRequest"):
        assert wanted in messages, f"{wanted} missing from the compiled {TALLY_PROTO}"
    assert tally_pb2.SleepMetadata.DESCRIPTOR.full_name == SLEEP_METADATA
    # The generated module resolved its import against the descriptor that
    # googleapis-common-protos registers: same file name.
    deps = [d.name for d in tally_pb2.DESCRIPTOR.dependencies]
    assert "google/longrunning/operations.proto" in deps, deps
    return f"{len(messages)} messages, descriptor set of {len(files.file)} files"


def check_longrunning_source(files) -> str:
    """The .proto source protoc compiled against is the one whose descriptor
    the installed google.longrunning module registers (messages and fields)."""
    compiled = {f.name: f for f in files.file}["google/longrunning/operations.proto"]
    runtime = descriptor_pb2.FileDescriptorProto()
    operations_pb2.Operation.DESCRIPTOR.file.CopyToProto(runtime)

    def shape(file_proto):
        return {m.name: sorted((f.name, f.number, f.type) for f in m.field)
                for m in file_proto.message_type}

    assert shape(compiled) == shape(runtime), (
        "google/longrunning/operations.proto as compiled differs from the runtime descriptor")
    return f"{len(compiled.message_type)} messages agree with the runtime descriptor"


def check_operation_info(tally_pb2) -> str:
    method = tally_pb2.DESCRIPTOR.services_by_name["Diagnostics"].methods_by_name["Sleep"]
    info = method.GetOptions().Extensions[operations_pb2.operation_info]
    assert info.response_type == SLEEP_RESPONSE, info
    assert info.metadata_type == SLEEP_METADATA, info
    return f"response_type={info.response_type} metadata_type={info.metadata_type}"


# --------------------------------------------------------------------------
# Operation JSON: strict shape, and "is what protobuf's printer prints"


def printer_form(raw: dict, message) -> dict:
    """`raw` parsed into `message` (strictly) and printed back by protobuf."""
    json_format.ParseDict(raw, message, ignore_unknown_fields=False)
    return json_format.MessageToDict(message)


def check_operation_json(op: Any, where: str) -> None:
    """Strict checks on one Operation as Tally sent it over plain HTTP."""
    assert isinstance(op, dict), f"{where}: operation is not an object: {op!r}"
    keys = set(op)
    assert isinstance(op.get("done"), bool), f"{where}: `done` missing or not a bool: {op!r}"
    if op["done"]:
        results = keys & {"error", "response"}
        assert len(results) == 1, (
            f"{where}: a done operation needs exactly one of error/response, has {sorted(keys)}")
        assert keys == OPERATION_KEYS | results, (
            f"{where}: keys {sorted(keys)}, want {sorted(OPERATION_KEYS | results)}")
    else:
        assert keys == OPERATION_KEYS, (
            f"{where}: a running operation has keys {sorted(keys)}, want {sorted(OPERATION_KEYS)}")
    assert isinstance(op["name"], str) and NAME_RE.match(op["name"]), (
        f"{where}: name {op['name']!r} is not operations/<32 hex>")
    metadata = op["metadata"]
    assert isinstance(metadata, dict) and isinstance(metadata.get("@type"), str), (
        f"{where}: metadata is not an Any with @type: {metadata!r}")
    assert metadata["@type"].startswith(TYPE_PREFIX), (
        f"{where}: metadata @type {metadata['@type']!r} lacks {TYPE_PREFIX}")
    if "response" in op:
        assert isinstance(op["response"], dict) and "@type" in op["response"], (
            f"{where}: response is not an Any with @type: {op['response']!r}")
    if "error" in op:
        error = op["error"]
        assert isinstance(error, dict) and set(error) <= {"code", "message", "details"}, (
            f"{where}: error is not a google.rpc.Status: {error!r}")
        assert isinstance(error.get("code"), int) and error["code"] != 0, (
            f"{where}: error.code must be a non-zero number: {error!r}")

    # Each Any, and the whole Operation, reads back exactly as protobuf's own
    # JSON printer writes it (default values left out, int64 as strings,
    # Duration/Timestamp spellings, lowerCamelCase names).
    for field in ("metadata", "response"):
        if field in op:
            printed = printer_form(op[field], any_pb2.Any())
            assert printed == op[field], (
                f"{where}: {field} is not what protobuf prints:\n"
                f"   tally:    {json.dumps(op[field], sort_keys=True)}\n"
                f"   protobuf: {json.dumps(printed, sort_keys=True)}")
    if "error" in op:
        printed = printer_form(op["error"], status_pb2.Status())
        assert printed == op["error"], (
            f"{where}: error is not what protobuf prints: {op['error']!r} vs {printed!r}")
    # The printer leaves out `done: false`; Tally always writes `done`.
    expected = {k: v for k, v in op.items() if not (k == "done" and v is False)}
    printed = printer_form(op, operations_pb2.Operation())
    assert printed == expected, (
        f"{where}: operation is not what protobuf prints:\n"
        f"   tally:    {json.dumps(expected, sort_keys=True)}\n"
        f"   protobuf: {json.dumps(printed, sort_keys=True)}")


# --------------------------------------------------------------------------
# Plain HTTP


class Http:
    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.token = token
        self.session = requests.Session()
        self.session.trust_env = False  # loopback: never through a proxy
        self.seen = 0  # operations shape-checked

    def request(self, method: str, path: str, *, auth: Optional[str] = "default",
                json_body: Any = None, data: Any = None,
                headers: Optional[Dict[str, str]] = None,
                params: Any = None, timeout: float = 30) -> requests.Response:
        all_headers: Dict[str, str] = {}
        if auth == "default":
            all_headers["Authorization"] = f"Bearer {self.token}"
        elif auth is not None:
            all_headers["Authorization"] = auth
        all_headers.update(headers or {})
        return self.session.request(method, self.base + path, headers=all_headers,
                                    json=json_body, data=data, params=params, timeout=timeout)

    @staticmethod
    def body(response: requests.Response, want_status: int = 200) -> Any:
        text = response.text
        assert response.status_code == want_status, (
            f"{response.request.method} {response.request.path_url}: HTTP "
            f"{response.status_code}, want {want_status}: {text[:500]}")
        try:
            return response.json()
        except ValueError:
            raise AssertionError(
                f"{response.request.method} {response.request.path_url}: body is not JSON: "
                f"{text[:500]!r}") from None

    def operation(self, response: requests.Response, where: str) -> dict:
        op = self.body(response)
        check_operation_json(op, where)
        self.seen += 1
        return op

    def error(self, response: requests.Response, want_status: int, want_name: str) -> str:
        """AIP-193: {"error": {"code": <http status>, "message": ..., "status": NAME}}."""
        body = self.body(response, want_status)
        assert isinstance(body, dict) and set(body) == {"error"}, (
            f"error body is not {{\"error\": ...}}: {body!r}")
        error = body["error"]
        assert isinstance(error, dict) and {"code", "message", "status"} <= set(error) <= ERROR_KEYS, (
            f"error has keys {sorted(error) if isinstance(error, dict) else error!r}")
        assert error["code"] == want_status, f"error.code {error['code']!r}, want {want_status}"
        assert error["status"] == want_name, f"error.status {error['status']!r}, want {want_name}"
        assert isinstance(error["message"], str) and error["message"], "error.message is empty"
        return f"{want_status} {want_name}: {error['message']}"

    def start_sleep(self, duration: str, fail: Optional[bool] = None) -> dict:
        body: Dict[str, Any] = {"duration": duration}
        if fail is not None:
            body["fail"] = fail
        op = self.operation(self.request("POST", "/v1/diagnostics:sleep", json_body=body),
                            f"POST /v1/diagnostics:sleep {body}")
        assert op["metadata"]["@type"] == TYPE_PREFIX + SLEEP_METADATA, op["metadata"]["@type"]
        return op

    def get(self, name: str) -> dict:
        return self.operation(self.request("GET", f"/v1/{name}"), f"GET /v1/{name}")

    def wait(self, name: str, timeout: str = "5s") -> dict:
        return self.operation(
            self.request("POST", f"/v1/{name}:wait", json_body={"timeout": timeout}),
            f"POST /v1/{name}:wait")

    def list_page(self, params: Dict[str, Any], path: str = "/v1/operations") -> dict:
        body = self.body(self.request("GET", path, params=params))
        assert isinstance(body, dict) and set(body) <= LIST_KEYS, (
            f"GET {path} {params}: keys {sorted(body) if isinstance(body, dict) else body!r}")
        ops = body.get("operations", [])
        assert isinstance(ops, list), f"operations is not a list: {ops!r}"
        for op in ops:
            check_operation_json(op, f"GET {path} {params}")
            self.seen += 1
        token = body.get("nextPageToken")
        assert token is None or (isinstance(token, str) and token), (
            f"nextPageToken must be absent or non-empty, got {token!r}")
        return {"operations": ops, "nextPageToken": token}

    def list_all(self, params: Dict[str, Any], *, size_key: str = "pageSize",
                 token_key: str = "pageToken", page_size: Optional[int] = None,
                 path: str = "/v1/operations", max_pages: int = 500) -> List[dict]:
        params = dict(params)
        if page_size is not None:
            params[size_key] = page_size
        ops: List[dict] = []
        for _ in range(max_pages):
            page = self.list_page(params, path)
            if page_size is not None:
                assert len(page["operations"]) <= page_size, (
                    f"page of {len(page['operations'])} operations for {size_key}={page_size}")
            ops.extend(page["operations"])
            if not page["nextPageToken"]:
                return ops
            params[token_key] = page["nextPageToken"]
        raise AssertionError(f"still a nextPageToken after {max_pages} pages")


def names(ops: Iterable) -> List[str]:
    return [op["name"] if isinstance(op, dict) else op.name for op in ops]


def no_duplicates(listed: List[str]) -> None:
    dupes = sorted({n for n in listed if listed.count(n) > 1})
    assert not dupes, f"listed more than once: {dupes}"


def tamper(token: str) -> str:
    """The token with one character in its middle changed to another of the
    same alphabet (a middle one: the last base64 character may only carry
    padding bits)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    i = len(token) // 2
    c = token[i]
    replacement = alphabet[(alphabet.index(c) + 1) % len(alphabet)] if c in alphabet else "A"
    return token[:i] + replacement + token[i + 1:]


# --------------------------------------------------------------------------
# Google's client


def google_client(base: str, credentials) -> operations_v1.AbstractOperationsClient:
    # AbstractOperationsClient builds its own transport without http_options
    # or url_scheme, so the transport is made here and handed over. Its
    # `url_scheme` argument is not passed on to the base transport (which then
    # assumes https), but a host that already carries its scheme is kept as is:
    # hence host=base ("http://127.0.0.1:PORT").
    transport = operations_v1.OperationsRestTransport(
        host=base,
        credentials=credentials,
        url_scheme="http",
        http_options=HTTP_OPTIONS,
    )
    # The transport's requests session (google-auth's AuthorizedSession) would
    # honour *_PROXY variables; the server is on loopback.
    session = getattr(transport, "_session", None)
    if session is not None:
        session.trust_env = False
    return operations_v1.AbstractOperationsClient(transport=transport)


def poll_done(get: Callable[[], Any], is_done: Callable[[Any], bool], what: str,
              limit: float = 25.0) -> Any:
    deadline = time.monotonic() + limit
    while True:
        value = get()
        if is_done(value):
            return value
        assert time.monotonic() < deadline, f"{what} not done after {limit:.0f}s"
        time.sleep(0.1)


def _any_from_dict(raw: dict):
    message = any_pb2.Any()
    json_format.ParseDict(raw, message, ignore_unknown_fields=False)
    return message


def unpack(any_msg, cls):
    assert any_msg.type_url == TYPE_PREFIX + cls.DESCRIPTOR.full_name, (
        f"type_url {any_msg.type_url!r}, want {TYPE_PREFIX + cls.DESCRIPTOR.full_name}")
    message = cls()
    assert any_msg.Unpack(message), f"Any.Unpack into {cls.DESCRIPTOR.full_name} failed"
    return message


# --------------------------------------------------------------------------
# The test


def run(args: argparse.Namespace, report: Report, workdir: Path) -> None:
    base = args.base.rstrip("/")
    token = args.token
    auth = [("authorization", f"Bearer {token}")]

    compiled: Dict[str, Any] = {}

    def do_compile():
        module, descriptor_set = compile_protos(workdir)
        compiled["module"], compiled["files"] = module, descriptor_set
        return check_compiled(module, descriptor_set)

    report.check(f"protoc compiles {TALLY_PROTO}", do_compile, critical=True)
    tally_pb2, files = compiled["module"], compiled["files"]
    report.check("google/longrunning/operations.proto source matches the installed module",
                 lambda: check_longrunning_source(files))
    report.check("Diagnostics.Sleep operation_info names SleepResponse/SleepMetadata",
                 lambda: check_operation_info(tally_pb2))

    http = Http(base, token)
    client = google_client(base, ga_credentials.AnonymousCredentials())
    started: List[str] = []
    state: Dict[str, Any] = {}

    try:
        _run_checks(report, http, client, tally_pb2, auth, base, token, started, state)
    finally:
        # Leave no sleeper running: cancel what this test started and did not
        # see finish (errors ignored; the test's verdict is already printed).
        for name in started:
            try:
                response = http.request("GET", f"/v1/{name}", timeout=5)
                if response.status_code == 200 and not response.json().get("done"):
                    http.request("POST", f"/v1/{name}:cancel", json_body={}, timeout=5)
            except Exception:  # noqa: BLE001
                pass


def _run_checks(report, http: Http, client, tally_pb2, auth, base, token,
                started: List[str], state: Dict[str, Any]) -> None:
    SleepMetadata, SleepResponse = tally_pb2.SleepMetadata, tally_pb2.SleepResponse

    # ---- start operations over plain HTTP ---------------------------------
    def start(duration, key, **kw):
        def go():
            op = http.start_sleep(duration, **kw)
            started.append(op["name"])
            state[key] = op
            return f"{op['name']} done={op['done']}"
        return go

    report.check('POST /v1/diagnostics:sleep {"duration": "30s", "fail": false}',
                 start("30s", "long", fail=False), critical=True)
    report.check('POST /v1/diagnostics:sleep {"duration": "0.2s"}',
                 start("0.2s", "short"), critical=True)
    long_name, short_name = state["long"]["name"], state["short"]["name"]

    def long_metadata_raw():
        op = state["long"]
        assert not op["done"], "the 30 s sleep is already done"
        meta = unpack(_any_from_dict(op["metadata"]), SleepMetadata)
        assert meta.duration.seconds == 30 and meta.duration.nanos == 0, meta.duration
        assert json_format.MessageToDict(meta) == {
            k: v for k, v in op["metadata"].items() if k != "@type"}, (
            "running SleepMetadata JSON is not MessageToDict(SleepMetadata)")
        assert "fail" not in op["metadata"], "fail=false must be left out"
        return f"running metadata == MessageToDict(SleepMetadata): {json.dumps(op['metadata'])}"

    report.check("running operation's metadata JSON is protobuf's printer output",
                 long_metadata_raw)

    # ---- Google's client --------------------------------------------------
    def g_get():
        op = client.get_operation(long_name, metadata=auth)
        assert op.name == long_name, f"name {op.name!r}, want {long_name!r}"
        meta = unpack(op.metadata, SleepMetadata)
        assert meta.duration.seconds == 30, f"duration {meta.duration}"
        assert meta.progress.kind == "sleep", f"progress.kind {meta.progress.kind!r}"
        assert re.fullmatch(r"users/\d+", meta.progress.owner), (
            f"progress.owner {meta.progress.owner!r}")
        assert meta.progress.HasField("create_time"), "progress.create_time unset"
        assert meta.progress.HasField("update_time"), "progress.update_time unset"
        assert 0 <= meta.progress.percent_done <= 100, meta.progress.percent_done
        state["owner"] = meta.progress.owner
        return (f"done={op.done} duration={meta.duration.ToJsonString()} "
                f"owner={meta.progress.owner}")

    report.check("google client get_operation (metadata=[authorization]) + Any.Unpack",
                 g_get, critical=True)

    def g_get_oauth2():
        other = google_client(base, oauth2_credentials.Credentials(token=token))
        op = other.get_operation(short_name)
        assert op.name == short_name
        unpack(op.metadata, SleepMetadata)
        return "Authorization header written by the credentials"

    report.check("google client get_operation with google.oauth2 Credentials(token)",
                 g_get_oauth2)

    def g_list(name, **kw):
        def go():
            pager = client.list_operations(name, metadata=auth, **kw)
            listed = names(pager)  # follows next_page_token through every page
            no_duplicates(listed)
            for wanted in (long_name, short_name):
                assert wanted in listed, f"{wanted} not listed ({len(listed)} listed)"
            return f"{len(listed)} operations"
        return go

    report.check('google client list_operations(name="operations", filter_="")',
                 g_list("operations", filter_=""))
    if state.get("owner"):
        report.check(f"google client list_operations(name={state['owner']!r}) "
                     "(GET /v1/users/{user}/operations)", g_list(state["owner"], filter_=""))

    def g_list_paged():
        pager = client.list_operations("operations", filter_="", page_size=2, metadata=auth)
        pages = 0
        listed: List[str] = []
        for page in pager.pages:
            pages += 1
            assert len(page.operations) <= 2, f"page of {len(page.operations)} for page_size=2"
            listed.extend(names(page.operations))
        no_duplicates(listed)
        for wanted in (long_name, short_name):
            assert wanted in listed, f"{wanted} not listed"
        return f"{len(listed)} operations in {pages} pages"

    report.check("google client list_operations(page_size=2) pager", g_list_paged)

    def g_cancel():
        result = client.cancel_operation(long_name, metadata=auth)
        assert result is None, result
        op = poll_done(lambda: client.get_operation(long_name, metadata=auth),
                       lambda o: o.done, "the cancelled 30 s sleep")
        assert op.WhichOneof("result") == "error", f"result is {op.WhichOneof('result')}"
        assert op.error.code == CANCELLED, f"error.code {op.error.code}, want 1 (CANCELLED)"
        meta = unpack(op.metadata, SleepMetadata)
        assert meta.progress.cancel_requested, "progress.cancel_requested is false"
        assert meta.progress.HasField("end_time"), "progress.end_time unset on a done operation"
        return f"error={{code: {op.error.code}, message: {op.error.message!r}}}"

    report.check("google client cancel_operation, then get_operation until done: "
                 "error.code == 1", g_cancel)

    def cancelled_raw():
        op = http.get(long_name)  # shape + printer checks inside
        assert op["done"] and op["error"]["code"] == CANCELLED, op
        meta = unpack(_any_from_dict(op["metadata"]), SleepMetadata)
        assert json_format.MessageToDict(meta) == {
            k: v for k, v in op["metadata"].items() if k != "@type"}
        return "cancelled operation still readable; JSON is protobuf's printer output"

    report.check("GET the cancelled operation (plain HTTP)", cancelled_raw)

    def g_short_done():
        op = poll_done(lambda: client.get_operation(short_name, metadata=auth),
                       lambda o: o.done, "the 0.2 s sleep")
        assert op.WhichOneof("result") == "response", (
            f"result is {op.WhichOneof('result')}: {op.error}")
        response = unpack(op.response, SleepResponse)
        assert response.slept.seconds > 0 or response.slept.nanos > 0, (
            f"slept {response.slept.ToJsonString()}")
        return f"response slept={response.slept.ToJsonString()}"

    report.check("google client get_operation on the finished 0.2 s sleep: "
                 "SleepResponse", g_short_done)

    def short_raw():
        op = http.get(short_name)
        assert op["done"] and "response" in op, op
        assert op["response"]["@type"] == TYPE_PREFIX + SLEEP_RESPONSE, op["response"]
        response = unpack(_any_from_dict(op["response"]), SleepResponse)
        assert json_format.MessageToDict(response) == {
            k: v for k, v in op["response"].items() if k != "@type"}, (
            "SleepResponse JSON is not MessageToDict(SleepResponse)")
        meta = unpack(_any_from_dict(op["metadata"]), SleepMetadata)
        assert json_format.MessageToDict(meta) == {
            k: v for k, v in op["metadata"].items() if k != "@type"}, (
            "done SleepMetadata JSON is not MessageToDict(SleepMetadata)")
        return f"response {json.dumps(op['response'])}"

    report.check("done operation's metadata and response JSON are protobuf's printer output",
                 short_raw)

    def g_delete():
        result = client.delete_operation(short_name, metadata=auth)
        assert result is None, result
        try:
            client.get_operation(short_name, metadata=auth)
        except gexc.NotFound as error:
            not_found = error
        else:
            raise AssertionError("get_operation after delete_operation did not raise NotFound")
        listed = names(client.list_operations("operations", filter_="", metadata=auth))
        assert short_name not in listed, "deleted operation still listed"
        return f"then NotFound: {not_found.message}"

    report.check("google client delete_operation; get_operation raises NotFound; "
                 "not listed", g_delete)

    def g_errors():
        try:
            client.get_operation("operations/nope", metadata=auth)
        except gexc.NotFound:
            pass
        else:
            raise AssertionError("get_operation('operations/nope') did not raise NotFound")
        try:
            list(client.list_operations("operations", filter_="done ==", metadata=auth))
        except gexc.BadRequest as error:
            bad_request = type(error).__name__
        else:
            raise AssertionError("list_operations(filter_='done ==') did not raise BadRequest")
        return f"NotFound, {bad_request}"

    report.check("google client maps 404 and 400 to NotFound and BadRequest", g_errors)

    def g_unauthenticated():
        # A 401 makes google-auth's AuthorizedSession refresh the credentials
        # and retry; AnonymousCredentials cannot refresh, so the caller gets
        # google.auth's InvalidOperation rather than api_core's Unauthorized.
        try:
            client.get_operation(long_name)  # no authorization metadata
        except gexc.Unauthorized:
            return "Unauthorized"
        except auth_exceptions.InvalidOperation as error:
            return f"401 -> google.auth InvalidOperation ({error})"
        raise AssertionError("get_operation without a token succeeded")

    report.check("google client without a token is refused", g_unauthenticated)

    # ---- plain HTTP -------------------------------------------------------
    def wait_running():
        op = http.start_sleep("1s")
        started.append(op["name"])
        state["one"] = op
        waited = http.wait(op["name"], "5s")
        assert waited["name"] == op["name"]
        assert waited["done"] is True, f"wait returned done={waited['done']}"
        assert "response" in waited, f"1 s sleep ended with {waited.get('error')}"
        return f"done with {json.dumps(waited['response'])}"

    report.check('POST /v1/operations/{id}:wait {"timeout": "5s"} on a 1 s sleep',
                 wait_running)

    def wait_done():
        name = state["one"]["name"] if "one" in state else long_name
        waited = http.wait(name, "5s")
        assert waited["done"] is True, f"done={waited['done']}"
        return "done"

    report.check("POST :wait on a done operation", wait_done)

    def start_five():
        five = []
        for _ in range(5):
            op = http.start_sleep("0.1s")
            started.append(op["name"])
            five.append(op["name"])
        state["five"] = five
        return ", ".join(n[-6:] for n in five)

    report.check("start 5 short sleeps", start_five)

    def paginate(size_key, token_key):
        def go():
            ops = http.list_all({}, size_key=size_key, token_key=token_key, page_size=2)
            listed = names(ops)
            no_duplicates(listed)
            for wanted in state.get("five", []) + [long_name]:
                assert wanted in listed, f"{wanted} not listed"
            assert short_name not in listed, "deleted operation listed"
            return f"{len(listed)} operations, each once"
        return go

    report.check("GET /v1/operations?pageSize=2 following nextPageToken",
                 paginate("pageSize", "pageToken"))
    report.check("GET /v1/operations?page_size=2 following page_token",
                 paginate("page_size", "page_token"))

    def tampered():
        page = http.list_page({"pageSize": 1})
        assert page["nextPageToken"], "no nextPageToken with pageSize=1 (need >1 operations)"
        bad = tamper(page["nextPageToken"])
        assert bad != page["nextPageToken"]
        return http.error(http.request("GET", "/v1/operations",
                                       params={"pageSize": 1, "pageToken": bad}),
                          400, "INVALID_ARGUMENT")

    report.check("tampered pageToken -> 400 INVALID_ARGUMENT", tampered)
    report.check("pageSize=-1 -> 400 INVALID_ARGUMENT", lambda: http.error(
        http.request("GET", "/v1/operations", params={"pageSize": -1}), 400, "INVALID_ARGUMENT"))

    def capped():
        page = http.list_page({"pageSize": 5000})
        assert len(page["operations"]) <= 1000, f"{len(page['operations'])} operations > 1000"
        return f"{len(page['operations'])} operations"

    report.check("pageSize=5000 is capped, not refused", capped)
    report.check("GET /v1/operations/nope -> 404 NOT_FOUND", lambda: http.error(
        http.request("GET", "/v1/operations/nope"), 404, "NOT_FOUND"))
    report.check('filter "done ==" -> 400 INVALID_ARGUMENT', lambda: http.error(
        http.request("GET", "/v1/operations", params={"filter": "done =="}),
        400, "INVALID_ARGUMENT"))

    # Filters, with one operation known to be running.
    def start_running():
        op = http.start_sleep("30s")
        started.append(op["name"])
        state["running"] = op["name"]
        return op["name"]

    report.check("start a 30 s sleep for the filter checks", start_running)
    running = state.get("running")
    done_names = [long_name] + state.get("five", [])

    def filtered(expr, predicate, include=(), exclude=()):
        def go():
            # The five 0.1 s sleeps are done by now; make sure before asserting.
            for name in state.get("five", []):
                http.wait(name, "5s")
            ops = http.list_all({"filter": expr}, page_size=100)
            listed = names(ops)
            no_duplicates(listed)
            for op in ops:
                assert predicate(op), f"{op['name']} does not match {expr!r}: {json.dumps(op)}"
            for name in include:
                assert name in listed, f"{name} missing"
            for name in exclude:
                assert name not in listed, f"{name} listed"
            return f"{len(listed)} operations"
        return go

    is_sleep = lambda op: op["metadata"]["@type"] == TYPE_PREFIX + SLEEP_METADATA  # noqa: E731
    with_running = [running] if running else []
    report.check('filter "done = true"', filtered(
        "done = true", lambda op: op["done"] is True, done_names, with_running))
    report.check('filter "done = false"', filtered(
        "done = false", lambda op: op["done"] is False, with_running, done_names))
    report.check('filter \'metadata_type = "tally.v1.SleepMetadata"\'', filtered(
        'metadata_type = "tally.v1.SleepMetadata"', is_sleep, done_names + with_running))
    report.check("filter metadata_type = full type URL", filtered(
        f'metadata_type = "{TYPE_PREFIX}{SLEEP_METADATA}"', is_sleep, done_names + with_running))
    report.check('filter \'kind = "sleep" AND NOT (done = true)\'', filtered(
        'kind = "sleep" AND NOT (done = true)',
        lambda op: op["metadata"]["progress"]["kind"] == "sleep" and not op["done"],
        with_running, done_names))
    report.check("filter with OR, parentheses and create_time >", filtered(
        '(done = true OR done = false) AND create_time > "2000-01-01T00:00:00Z"',
        lambda op: True, done_names + with_running))
    report.check('filter \'create_time < "2000-01-01T00:00:00Z"\'', filtered(
        'create_time < "2000-01-01T00:00:00Z"',
        lambda op: op["metadata"]["progress"]["createTime"] < "2000", (),
        done_names + with_running))
    report.check('filter \'end_time >= "2000-01-01T00:00:00Z"\'', filtered(
        'end_time >= "2000-01-01T00:00:00Z"',
        lambda op: "endTime" in op["metadata"]["progress"], done_names, with_running))

    def cancel_empty_body():
        assert running, "no running operation"
        response = http.request("POST", f"/v1/{running}:cancel", data=b"",
                                headers={"Content-Type": "application/json"})
        body = http.body(response)
        assert body == {}, f"cancel answered {body!r}, want {{}}"
        waited = poll_done(lambda: http.wait(running, "5s"), lambda o: o["done"],
                           "the cancelled sleep")
        assert waited.get("error", {}).get("code") == CANCELLED, waited
        return "{} then done with error.code 1"

    report.check("POST :cancel with Content-Type: application/json and an empty body -> {}",
                 cancel_empty_body)

    def delete_plain():
        assert running, "no running operation"
        body = http.body(http.request("DELETE", f"/v1/{running}"))
        assert body == {}, f"DELETE answered {body!r}, want {{}}"
        http.error(http.request("GET", f"/v1/{running}"), 404, "NOT_FOUND")
        return "{} then 404"

    report.check("DELETE /v1/operations/{id} -> {}", delete_plain)
    report.check("no Authorization header -> 401 UNAUTHENTICATED", lambda: http.error(
        http.request("GET", "/v1/operations", auth=None), 401, "UNAUTHENTICATED"))
    report.check("wrong bearer token -> 401 UNAUTHENTICATED", lambda: http.error(
        http.request("GET", f"/v1/{long_name}", auth="Bearer not-a-tally-token"),
        401, "UNAUTHENTICATED"))
    report.check("every operation seen over plain HTTP had the strict shape",
                 lambda: f"{http.seen} operations checked")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token", required=True, help="an administrator's API token")
    parser.add_argument("--verbose", action="store_true", help="print tracebacks of failures")
    args = parser.parse_args(argv)
    if not re.match(r"^https?://[^/]+", args.base):
        parser.error(f"--base must be like http://127.0.0.1:PORT, got {args.base!r}")

    report = Report(args.verbose)
    workdir = Path(tempfile.mkdtemp(prefix="tally-compat-"))
    aborted = None
    try:
        run(args, report, workdir)
    except Abort as abort:
        aborted = str(abort)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if aborted:
        print(f"stopped: {aborted!r} failed and the remaining checks depend on it", flush=True)
    print(f"operations: {report.passed} passed, {report.failed} failed", flush=True)
    if report.failed == 0 and report.passed == 0:
        return 2
    return 0 if report.failed == 0 and not aborted else 1


if __name__ == "__main__":
    sys.exit(main())
