from tests.webhooks.conftest import private_ok, receiver  # noqa: F401 (the loopback webhook receiver fixtures)
