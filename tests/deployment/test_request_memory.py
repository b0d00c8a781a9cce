"""A web process frees the previous request's reference cycles when the next request starts (config/wsgi.py)."""

import gc
import importlib
import io
import weakref

import pytest
from django.core.signals import request_started


class _Cyclic:
    """Stands for a finished request's view and response: they name each other, so only the collector frees them."""


@pytest.mark.django_db
def test_the_next_request_frees_the_cycles_the_previous_one_left(settings):
    settings.DEBUG = True  # config.wsgi refuses development secrets with DEBUG off
    application = importlib.import_module("config.wsgi").application
    leftover = _Cyclic()
    leftover.itself = leftover
    gone = weakref.ref(leftover)
    gc.collect()
    gc.collect()  # it survived two collections while in use: it is in the oldest generation, as a long request's are
    del leftover
    gc.disable()  # no automatic collection: only the one a request starts can free it
    try:
        assert gone() is not None
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": "/v1/platform/me", "SERVER_NAME": "testserver",
            "SERVER_PORT": "80", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
        }  # fmt: skip
        statuses = []
        b"".join(application(environ, lambda status, headers, exc_info=None: statuses.append(status)))
        assert statuses == ["401 Unauthorized"]
        assert gone() is None
    finally:
        gc.enable()
        request_started.disconnect(dispatch_uid="request_memory.collect_previous_request")
