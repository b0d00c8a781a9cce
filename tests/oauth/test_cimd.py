"""Client ID Metadata Documents, fetched from a real local https server through the hardened client."""

import datetime as dt
import ipaddress
import json
import ssl
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.utils import timezone

from apps.api import outbound
from apps.oauth import cimd
from apps.oauth.models import Client

from .conftest import REDIRECT_URI, Flow

pytestmark = pytest.mark.django_db


def self_signed(directory):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


class DocumentServer:
    def __init__(self, directory):
        cert_file, key_file = self_signed(directory)
        self.cert_file = str(cert_file)
        self.documents = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                if self.path == "/redirect.json":
                    self.send_response(302)
                    self.send_header("Location", f"{server.base}/client.json")
                    self.end_headers()
                    return
                if self.path == "/slow.json":
                    time.sleep(2.5)
                if self.path == "/huge.json":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    try:
                        for _ in range(80):
                            self.wfile.write(b" " * 65536)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    return
                document = server.documents.get(self.path)
                if document is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                body = json.dumps(document).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Cache-Control", "max-age=600")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_file, key_file)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.base = f"https://localhost:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"{self.base}{path}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def documents(tmp_path, settings):
    server = DocumentServer(tmp_path)
    settings.OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = True  # the development setting: this server is on loopback
    settings.OAUTH_CIMD_EXTRA_CA_FILE = server.cert_file
    server.documents["/client.json"] = {
        "client_id": server.url("/client.json"),
        "client_name": "Metadata Agent",
        "redirect_uris": [REDIRECT_URI],
        "token_endpoint_auth_method": "none",
    }
    yield server
    server.close()


def authorize(client_id, **overrides):
    flow = Flow(client_id)
    return flow, flow.browser.get(flow.authorize_url(**overrides))


def test_a_metadata_document_client_needs_no_registration(documents, owner, organization):
    client_id = documents.url("/client.json")
    flow, page = authorize(client_id)
    assert page.status_code == 200, page.content
    assert "Sign in to connect Metadata Agent" in page.content.decode()
    client = Client.objects.get(client_id=client_id)
    assert (client.registration_source, client.client_type, client.name) == ("cimd", "public", "Metadata Agent")
    assert client.cimd_expires_at is not None
    code = flow.code(owner, organization)
    tokens = flow.exchange(code)
    assert tokens.status_code == 200, tokens.content


def test_private_addresses_are_refused_without_the_development_setting(documents, settings):
    settings.OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = False
    _, page = authorize(documents.url("/client.json"))
    assert page.status_code == 400
    assert "resolves to a private or local address" in page.content.decode()
    assert Client.objects.count() == 0


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/redirect.json", "it redirects (HTTP 302)"),
        ("/huge.json", "larger than 64 KiB"),
        ("/missing.json", "answered HTTP 404"),
        ("/mismatch.json", "client_id is not the URL"),
        ("/bad-redirects.json", "invalid"),
        ("/secret.json", "may not carry a client secret"),
    ],
)
def test_unusable_documents_are_refused_with_a_clear_error(documents, path, message):
    documents.documents["/mismatch.json"] = {
        "client_id": "https://elsewhere.example/c.json",
        "redirect_uris": [REDIRECT_URI],
    }
    documents.documents["/bad-redirects.json"] = {
        "client_id": documents.url("/bad-redirects.json"),
        "redirect_uris": ["http://evil.example/cb"],
    }
    documents.documents["/secret.json"] = {
        "client_id": documents.url("/secret.json"),
        "redirect_uris": [REDIRECT_URI],
        "client_secret": "s",
    }
    _, page = authorize(documents.url(path))
    assert page.status_code == 400
    assert message in page.content.decode()
    assert Client.objects.count() == 0


def test_a_slow_document_times_out(documents, monkeypatch):
    monkeypatch.setattr(cimd, "TIMEOUT_SECONDS", 1.0)
    started = time.monotonic()
    _, page = authorize(documents.url("/slow.json"))
    assert time.monotonic() - started < 2.4
    assert page.status_code == 400
    assert "did not answer in time" in page.content.decode()


def test_a_redirect_uri_missing_from_the_document_is_refused(documents):
    _, page = authorize(documents.url("/client.json"), redirect_uri="http://127.0.0.1:8765/other")
    assert page.status_code == 400
    assert Client.objects.count() == 1  # the document itself was fine


def test_the_outbound_client_refuses_internal_addresses():
    for address in ("127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1", "fd00::1", "64:ff9b::a00:1"):
        assert not outbound.is_public_address(address), address
    assert outbound.is_public_address("93.184.216.34")
    with pytest.raises(outbound.OutboundError) as refused:
        outbound.fetch("https://127.0.0.1/client.json")
    assert refused.value.reason == "private_address"
    with pytest.raises(outbound.OutboundError) as refused:
        outbound.fetch("http://example.com/client.json")
    assert refused.value.reason == "scheme"


def test_a_document_is_reused_until_its_cache_lifetime_ends(documents):
    client_id = documents.url("/client.json")
    authorize(client_id)
    stored = Client.objects.get(client_id=client_id)
    lifetime = stored.cimd_expires_at - stored.created
    assert timedelta(minutes=9) < lifetime <= timedelta(minutes=10)  # the document's `max-age=600`
    documents.documents["/client.json"] = {**documents.documents["/client.json"], "client_name": "Renamed Agent"}
    _, page = authorize(client_id)
    assert "Metadata Agent" in page.content.decode()  # cached: not fetched again
    Client.objects.filter(pk=stored.pk).update(cimd_expires_at=timezone.now() - timedelta(seconds=1))
    _, page = authorize(client_id)
    assert "Renamed Agent" in page.content.decode()
    # A failed re-fetch keeps the last good document.
    Client.objects.filter(pk=stored.pk).update(cimd_expires_at=timezone.now() - timedelta(seconds=1))
    del documents.documents["/client.json"]
    _, page = authorize(client_id)
    assert page.status_code == 200 and "Renamed Agent" in page.content.decode()


def test_a_failed_document_is_not_fetched_again_at_once(documents, monkeypatch):
    fetches = []
    real_fetch = cimd.fetch_document
    monkeypatch.setattr(cimd, "fetch_document", lambda client_id: fetches.append(client_id) or real_fetch(client_id))
    for _ in range(3):
        _, page = authorize(documents.url("/redirect.json"))
        assert page.status_code == 400
        assert "it redirects (HTTP 302)" in page.content.decode()
    assert len(fetches) == 1
