"""A web process frees the previous request's reference cycles when the next request starts.

Every request leaves cycles behind that reference counting cannot free: DRF's view holds bound methods of itself
and its response's `renderer_context` names the response, Django's message storage names the request. Through
them the whole request stays alive, with its view, its response, the page's rows and the rendered body, until a
garbage collection of their generation runs, which happens part-way through some later request. Each page was
then allocated while earlier pages were still live, and the heap kept growing: a sync worker serving a 200-row
transactions page grew by ~20 MiB over 1,500 requests (bench/run.py, `transactions`). Collecting the two young
generations when a request starts frees the previous one first (about 0.1 ms); the worker stays flat.
"""

import gc

from django.core.signals import request_started


def collect_previous_request(sender, **kwargs):
    gc.collect(1)


def connect() -> None:
    request_started.connect(collect_previous_request, dispatch_uid="request_memory.collect_previous_request")
