"""A limit on failed admin sign-ins, per client address and per account, counted in the Django cache.

Once either counter reaches its limit, every sign-in through that address or for that account is refused with a
form error until the window (counted from the first failure) ends, even with the right password, so guessing
cannot go on. A successful sign-in clears the account's counter, not the address's.
"""

import hashlib
import logging

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError

from apps.api.client_address import client_address

logger = logging.getLogger("apps.organizations")

TOO_MANY_FAILURES_MESSAGE = (
    "Too many failed sign-in attempts from this address or for this account. Try again in %(minutes)d minutes."
)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


class AdminLoginThrottle:
    def __init__(self, request, username):
        # The same client address as the API's failed-authentication bucket (TRUSTED_PROXY_COUNT behind proxies).
        address = client_address(request) if request is not None else "unknown"
        account = (username or "").strip().lower()
        self.window = settings.ADMIN_LOGIN_FAILURE_WINDOW_SECONDS
        self.address_key = f"admin-login-failures:address:{_digest(address)}"
        self.account_key = f"admin-login-failures:account:{_digest(account)}"
        self.limits = {
            self.address_key: settings.ADMIN_LOGIN_MAX_FAILURES_PER_ADDRESS,
            self.account_key: settings.ADMIN_LOGIN_MAX_FAILURES_PER_ACCOUNT,
        }

    def is_blocked(self) -> bool:
        try:
            counts = cache.get_many(list(self.limits))
        except Exception:  # the cache is down: fail open, like the API's rate limits
            logger.warning("Admin sign-in throttle unavailable (cache error); not limiting", exc_info=True)
            return False
        return any(int(counts.get(key) or 0) >= limit for key, limit in self.limits.items())

    def record_failure(self) -> None:
        try:
            for key in self.limits:
                if not cache.add(key, 1, self.window):
                    try:
                        cache.incr(key)
                    except ValueError:  # expired between add and incr
                        cache.add(key, 1, self.window)
        except Exception:
            logger.warning("Admin sign-in throttle unavailable (cache error); failure not counted", exc_info=True)

    def clear_account(self) -> None:
        try:
            cache.delete(self.account_key)
        except Exception:
            logger.warning("Admin sign-in throttle unavailable (cache error)", exc_info=True)


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's sign-in form, refusing every attempt once an address or account failed too often."""

    def clean(self):
        throttle = AdminLoginThrottle(self.request, self.cleaned_data.get("username"))
        if throttle.is_blocked():
            raise ValidationError(
                TOO_MANY_FAILURES_MESSAGE,
                code="too_many_failures",
                params={"minutes": max(1, throttle.window // 60)},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            throttle.record_failure()
            raise
        throttle.clear_account()
        return cleaned
