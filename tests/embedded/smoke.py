"""Run by tests/embedded/test_embedded_default.py in a subprocess on a fresh SQLite database (the `make run` setup).

Seeds the demo and reads every Platform API list and one object of each with the printed key.
"""

import io
import json
import os
import sys
from contextlib import redirect_stdout

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

call_command("migrate", verbosity=0)
out = io.StringIO()
with redirect_stdout(out):
    call_command("seed_demo", "--allow-production")  # as `make run` does
    call_command("seed_demo", "--allow-production")  # idempotent
token = out.getvalue().strip().splitlines()[-1].split(": ", 1)[1]
client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
results = {}
for arg in sys.argv[1:]:
    path, _, detail_key = arg.partition("|")  # "path|id": also read the first row by that key
    response = client.get(path)
    body = response.json()
    results[path] = {"status": response.status_code, "total": body.get("total")}
    if detail_key and response.status_code == 200 and body.get("data"):
        one = client.get(f"{path}/{body['data'][0][detail_key]}")
        results[f"{path} (one)"] = {"status": one.status_code, "total": None}
print(json.dumps(results))
