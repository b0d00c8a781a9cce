"""Racing callables on real parallel PostgreSQL connections, for the tests of row locks and constraints."""

import threading

from django.db import connection


def race(calls, *, catch=()):
    """Run the callables at the same moment, each on its own thread and connection; returns their results in order
    (an exception of a type in `catch` is returned as the result instead of being lost with its thread)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        except catch as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results
