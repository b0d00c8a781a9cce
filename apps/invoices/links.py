"""Signed links to an invoice's PDF: no credential needed, valid for 7 days from the read that made them.

The token signs the invoice id with the organization id (so a token cannot be moved to another tenant's invoice) and
a timestamp; a wrong signature or an expired token is a plain 404 at the PDF URL.
"""

from django.conf import settings
from django.core import signing

PDF_LINK_MAX_AGE_SECONDS = 7 * 24 * 3600
_SALT = "apps.invoices.pdf"


def pdf_token(organization_id: int, invoice_id: int) -> str:
    return signing.TimestampSigner(salt=_SALT).sign(f"{organization_id}.{invoice_id}")


def pdf_url(organization_id: int, invoice_id: int) -> str:
    return f"{settings.BASE_URL}/v1/invoices/pdf/{pdf_token(organization_id, invoice_id)}"


def read_pdf_token(token: str) -> tuple[int, int] | None:
    """(organization_id, invoice_id) of a valid, unexpired token; None otherwise."""
    try:
        value = signing.TimestampSigner(salt=_SALT).unsign(token, max_age=PDF_LINK_MAX_AGE_SECONDS)
    except signing.BadSignature:  # SignatureExpired is a BadSignature too
        return None
    organization_id, _, invoice_id = value.partition(".")
    if not (organization_id.isdigit() and invoice_id.isdigit()):
        return None
    return int(organization_id), int(invoice_id)
