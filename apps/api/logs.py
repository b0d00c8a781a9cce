"""The request id in every log record of a request, and one JSON object per line when `LOG_FORMAT=json`.

`RequestIdMiddleware` sets the current request's id in a context variable (per thread, per task); the
`RequestIdFilter` on the handler copies it onto every record (`-` outside a request, e.g. a Celery task), so a
plain line and a JSON line both carry it without any logger call passing it.
"""

import contextvars
import datetime as dt
import json
import logging

current_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


class RequestIdFilter(logging.Filter):
    def filter(self, record):
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, request_id, and the exception text
    when the record carries one (a traceback stays inside the one line, newlines escaped)."""

    def format(self, record):
        entry = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": _request_id(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def _request_id(record) -> str | None:
    value = getattr(record, "request_id", None) or current_request_id.get()
    return None if value in (None, "-") else value
