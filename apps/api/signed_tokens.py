"""Expiring signed tokens for links and forms that carry their own proof (no credential): a value signed with the
project's `SECRET_KEY` under a purpose-specific salt, and a timestamp."""

from django.core import signing


class ExpiringToken:
    def __init__(self, salt: str, max_age_seconds: int):
        self.salt = salt
        self.max_age_seconds = max_age_seconds

    def make(self, value: str) -> str:
        return signing.TimestampSigner(salt=self.salt).sign(value)

    def read(self, token: str) -> str | None:
        """The signed value of a token that is genuine and not older than `max_age_seconds`; None otherwise."""
        try:
            return signing.TimestampSigner(salt=self.salt).unsign(token, max_age=self.max_age_seconds)
        except signing.BadSignature:  # SignatureExpired is a BadSignature too
            return None
