"""The request body cap (413 PAYLOAD_TOO_LARGE): declared lengths and chunked bodies, in the test
client and through a real gunicorn, whose answer the client can read (not a reset connection)."""

import http.client
import io
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from django.db import connection

from apps.contacts.models import Contact
from tests.server_env import free_port, stop, wait_until_up

from .conftest import PROBES

pytestmark = pytest.mark.urls("tests.api.urls_for_tests")

MIB = 1024 * 1024


def padded_body(size: int) -> bytes:
    """A valid probe body of exactly `size` bytes."""
    head = b'{"firstName": "Zoe", "pad": "'
    return head + b"x" * (size - len(head) - 2) + b'"}'


def assert_too_large(response, max_bytes=MIB):
    assert response.status_code == 413, response.content[:300]
    assert response.json() == {
        "error": "Request Entity Too Large",
        "message": f"The request body is larger than the maximum of {max_bytes} bytes.",
        "code": "PAYLOAD_TOO_LARGE",
        "details": {"maxBytes": max_bytes},
    }


def post_chunked(client, body: bytes, path=PROBES):
    """What a server hands Django for `Transfer-Encoding: chunked`: no length, the decoded bytes in wsgi.input."""
    return client.generic(
        "POST",
        path,
        b"",
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(body)},
    )


def test_a_body_over_the_cap_is_413_before_any_database_work(api, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api.post(PROBES, padded_body(MIB + 1), content_type="application/json")
    assert_too_large(response)
    assert not Contact.objects.exists()


def test_a_body_of_exactly_the_cap_is_served(api):
    response = api.post(PROBES, padded_body(MIB), content_type="application/json")
    assert response.status_code == 201, response.content[:300]


def test_the_cap_is_a_setting(api, settings):
    settings.API_MAX_BODY_BYTES = 100
    assert_too_large(api.post(PROBES, padded_body(101), content_type="application/json"), 100)
    assert api.post(PROBES, padded_body(100), content_type="application/json").status_code == 201


def test_any_method_and_any_content_type_is_capped(api, contact):
    assert_too_large(api.generic("PATCH", f"{PROBES}/{contact.id}", b"x" * (MIB + 1), content_type="text/plain"))
    assert_too_large(api.generic("GET", PROBES, b"x" * (MIB + 1)))


def test_unauthenticated_oversized_body_is_413_too(db):
    from rest_framework.test import APIClient

    assert_too_large(APIClient().post(PROBES, padded_body(2 * MIB), content_type="application/json"))


def test_chunked_body_over_the_cap_is_413(api):
    assert_too_large(post_chunked(api, padded_body(MIB + 1)))
    assert not Contact.objects.exists()


def test_chunked_body_within_the_cap_is_read(api):
    response = post_chunked(api, b'{"firstName": "Chunked"}')
    assert response.status_code == 201, response.content
    assert response.json()["firstName"] == "Chunked"


def test_channel_booking_with_a_5_mb_note_is_413_not_500(client_for):
    body = orjson.dumps({"externalSource": "partner", "externalId": "x1", "type": "area", "notes": "n" * 5 * MIB})
    response = client_for("bookings:write").post("/v1/platform/channel-bookings", body, content_type="application/json")
    assert_too_large(response)


# --- through a real server --------------------------------------------------------------------------------------


SERVER_SECRETS = {"SECRET_KEY": secrets.token_hex(32), "API_KEY_PEPPER": secrets.token_hex(32)}


@pytest.fixture(scope="module")
def server(django_db_setup):
    """One gunicorn process (sync worker, as the Procfile runs it) serving the test database."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "LOG_LEVEL": "WARNING",
        **SERVER_SECRETS,  # with DEBUG off the server refuses development secrets
    }
    root = Path(__file__).resolve().parents[2]
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "-w",
        "1",
        "-b",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(port, proc, time.monotonic() + 15, path="/v1/nothing")
        yield port
    finally:
        stop(proc)


def read_answer(conn) -> tuple[int, dict]:
    response = conn.getresponse()
    return response.status, orjson.loads(response.read())


def test_server_answers_a_declared_oversized_body_with_a_readable_413(server, transactional_db, make_token):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=20)
    headers = {"Authorization": f"Bearer {make_token()}", "Content-Type": "application/json"}
    conn.request("POST", "/v1/platform/contacts", body=padded_body(5 * MIB), headers=headers)
    status, body = read_answer(conn)
    assert status == 413
    assert body["code"] == "PAYLOAD_TOO_LARGE"
    assert body["details"] == {"maxBytes": MIB}


def test_server_answers_a_chunked_oversized_body_with_a_readable_413(server, transactional_db, make_token):
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=20)
    headers = {"Authorization": f"Bearer {make_token()}", "Content-Type": "application/json"}
    pieces = (b"x" * 65536 for _ in range(3 * 16))  # 3 MiB in 64 KiB chunks
    conn.request("POST", "/v1/platform/contacts", body=pieces, headers=headers, encode_chunked=True)
    status, body = read_answer(conn)
    assert status == 413
    assert body["code"] == "PAYLOAD_TOO_LARGE"


def test_server_answers_a_huge_declared_length_at_once(server):
    """A client that waits for the answer before sending (Expect: 100-continue style) learns why at once."""
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=20)
    conn.putrequest("POST", "/v1/platform/contacts")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(4 * 1024 * MIB))
    conn.endheaders()
    status, body = read_answer(conn)
    assert status == 413
    assert body["code"] == "PAYLOAD_TOO_LARGE"


def test_server_reads_a_chunked_body_within_the_cap(server, transactional_db, make_token, organization, settings):
    settings.API_KEY_PEPPER = SERVER_SECRETS["API_KEY_PEPPER"]  # the key must hash as the server hashes it
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=20)
    headers = {"Authorization": f"Bearer {make_token()}", "Content-Type": "application/json"}
    pieces = iter([b'{"firstName": ', b'"Chunked"}'])
    conn.request("POST", "/v1/platform/contacts", body=pieces, headers=headers, encode_chunked=True)
    status, body = read_answer(conn)
    assert status == 201, body
    assert body["firstName"] == "Chunked"
    assert Contact.objects.filter(organization=organization, first_name="Chunked").exists()
