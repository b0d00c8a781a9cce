"""Signed tokens for links and forms that carry their own proof (no credential): a value signed with the project's
`SECRET_KEY` under a purpose-specific salt, a timestamp (unless the token never expires), and an epoch claim.

The epoch is a counter kept by whoever may revoke the links (an organization's `link_epoch` for invoice PDFs and
website previews, its `calendar_feed_epoch` for instructor feeds): the reader compares the token's epoch with the
current one, so bumping the counter revokes every token made before, at once, without rotating `SECRET_KEY`.
Tokens that need no revocation (the form pages' CSRF tokens) carry epoch 0.
"""

from typing import NamedTuple

from django.core import signing

# Between the value and the epoch: an unreserved URL character that the signer itself never writes.
EPOCH_SEPARATOR = "~"


class Claims(NamedTuple):
    value: str
    epoch: int


class ExpiringToken:
    def __init__(self, salt: str, max_age_seconds: int | None):
        """`max_age_seconds=None`: the token never expires (revoked only through its epoch or its value) and
        carries no timestamp, so the same value and epoch always make the same token (a stable feed URL)."""
        self.salt = salt
        self.max_age_seconds = max_age_seconds

    def _signer(self) -> signing.Signer:
        if self.max_age_seconds is None:
            return signing.Signer(salt=self.salt)
        return signing.TimestampSigner(salt=self.salt)

    def make(self, value: str, epoch: int = 0) -> str:
        return self._signer().sign(f"{value}{EPOCH_SEPARATOR}{int(epoch)}")

    def read(self, token: str) -> Claims | None:
        """The signed value and epoch of a token that is genuine and not older than `max_age_seconds`; None
        otherwise (a bad signature, expired, or made before epochs were signed). The caller compares the epoch."""
        try:
            signer = self._signer()
            if self.max_age_seconds is None:
                signed = signer.unsign(token)
            else:
                signed = signer.unsign(token, max_age=self.max_age_seconds)
        except signing.BadSignature:  # SignatureExpired is a BadSignature too
            return None
        value, separator, epoch = signed.rpartition(EPOCH_SEPARATOR)
        if not separator or not epoch.isdigit() or len(epoch) > 10:
            return None
        return Claims(value, int(epoch))
