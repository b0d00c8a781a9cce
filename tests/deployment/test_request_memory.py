"""A web process frees the previous request's reference cycles when the next request starts (config/wsgi.py)."""

import gc
import importlib
import io
import weakref

import pytest
from django.core.signals import request_started

from config import request_memory


class _Cyclic:
    """Stands for a finished request's view and response: they name each other, so only the collector frees them."""


ENVIRON = {
    "REQUEST_METHOD": "GET", "PATH_INFO": "/v1/platform/me", "SERVER_NAME": "testserver", "SERVER_PORT": "80",
    "wsgi.url_scheme": "http",
}  # fmt: skip


@pytest.fixture
def application(settings):
    settings.DEBUG = True  # config.wsgi refuses development secrets with DEBUG off
    application = importlib.import_module("config.wsgi").application
    request_memory.connect()  # again: an earlier test's teardown disconnected it from the imported module
    yield application
    request_started.disconnect(dispatch_uid="request_memory.collect_previous_request")
    gc.unfreeze()


def unauthenticated_me(application) -> list[str]:
    statuses = []
    environ = {**ENVIRON, "wsgi.input": io.BytesIO()}
    b"".join(application(environ, lambda status, headers, exc_info=None: statuses.append(status)))
    return statuses


@pytest.mark.django_db
def test_the_next_request_frees_the_cycles_the_previous_one_left(application):
    leftover = _Cyclic()
    leftover.itself = leftover
    gone = weakref.ref(leftover)
    gc.collect()
    gc.collect()  # it survived two collections while in use: it is in the oldest generation, as a long request's are
    del leftover
    gc.disable()  # no automatic collection: only the one a request starts can free it
    try:
        assert gone() is not None
        assert unauthenticated_me(application) == ["401 Unauthorized"]
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.django_db
def test_what_a_worker_loads_late_is_frozen_so_that_later_collections_skip_it(application):
    unauthenticated_me(application)
    loaded_late = [[i] for i in range(300_000)]  # a module or cache some later first request loads
    frozen = gc.get_freeze_count()
    unauthenticated_me(application)  # its collection walks them (well over 2 ms) and freezes them
    assert gc.get_freeze_count() >= frozen + len(loaded_late)
    frozen = gc.get_freeze_count()
    unauthenticated_me(application)  # nothing new to walk: nothing more frozen
    assert gc.get_freeze_count() - frozen < len(loaded_late) // 10
