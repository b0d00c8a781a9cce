"""A minimal webhook receiver: verifies each delivery (Standard Webhooks), drops duplicates, prints the event.

    pip install standardwebhooks
    WEBHOOK_SECRET=whsec_... python scripts/webhook_receiver.py 8787

Listens on 127.0.0.1 (put it behind HTTPS to receive from a production API). Answers 204 to a verified delivery
(also to a duplicate, which it does not process again) and 400 to anything else.
"""

import json
import os
import sys
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

MAX_BODY = 5 * 1024 * 1024
VERIFIER = Webhook(os.environ["WEBHOOK_SECRET"])
SEEN: OrderedDict[str, None] = OrderedDict()  # recent webhook-ids; a real receiver keeps them in its database


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the http.server naming
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._answer(413)
        raw = self.rfile.read(length)
        try:
            event = VERIFIER.verify(raw, dict(self.headers))
        except WebhookVerificationError as exc:
            print(f"refused: {exc}", file=sys.stderr)
            return self._answer(400)
        event_id = self.headers["webhook-id"]
        if event_id in SEEN:
            return self._answer(204)  # at least once: the same event may come again
        SEEN[event_id] = None
        while len(SEEN) > 10_000:
            SEEN.popitem(last=False)
        print(json.dumps({"id": event["id"], "type": event["type"], "data": event["data"]}), flush=True)
        return self._answer(204)

    def _answer(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8787
    print(f"listening on http://127.0.0.1:{port}/", file=sys.stderr)
    ThreadingHTTPServer(("127.0.0.1", port), Receiver).serve_forever()
