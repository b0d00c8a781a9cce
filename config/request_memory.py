"""A web process frees the previous request's reference cycles when the next request starts.

Every request leaves cycles behind that reference counting cannot free: DRF's view holds bound methods of itself
and its response's `renderer_context` names the response, Django's message storage names the request. Through
them the whole request stays alive, with its view, its response, the page's rows and the rendered body, until a
garbage collection of their generation runs, which happens part-way through some later request (for a request
that allocates a lot, such as the revenue report, only the rare full collection: its objects reach the oldest
generation while it runs). Each page was then allocated while earlier ones were still live, and the heap kept
growing: a sync worker serving a 200-row transactions page grew by ~20 MiB over 1,500 requests (bench/run.py,
`transactions`), one serving the revenue report by ~10 MiB.

So each request starts with a full collection. When that collection had many survivors to walk (it took longer
than `FREEZE_AFTER_SECONDS`: the modules and caches a worker's first requests load, and later whatever a first
website page, PDF or MCP call loads), the survivors are frozen (`gc.freeze`): collections no longer walk them, and
a full one costs about 0.1 ms instead of about 60 ms, however late in the worker's life the loading happened. An
object frozen while alive that later becomes cyclic garbage is never freed; at a request's start, once the
previous request's garbage is collected, little but the process's modules and caches is alive.
"""

import gc
import time

from django.core.signals import request_started

FREEZE_AFTER_SECONDS = 0.002


def collect_previous_request(sender, **kwargs):
    started = time.perf_counter()
    gc.collect()
    if time.perf_counter() - started > FREEZE_AFTER_SECONDS:
        gc.freeze()


def connect() -> None:
    request_started.connect(collect_previous_request, dispatch_uid="request_memory.collect_previous_request")
