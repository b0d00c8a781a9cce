"""Signed links to an invoice's PDF: no credential needed, valid for 7 days from the read that made them.

The token signs the invoice id with the organization id (so a token cannot be moved to another tenant's invoice), a
timestamp and the organization's `link_epoch` (bumping it revokes every link); a wrong signature, an expired token
or an earlier epoch is a plain 404 at the PDF URL.
"""

from django.conf import settings

from apps.api.signed_tokens import ExpiringToken

PDF_LINK_MAX_AGE_SECONDS = 7 * 24 * 3600
_TOKENS = ExpiringToken("apps.invoices.pdf", PDF_LINK_MAX_AGE_SECONDS)


def pdf_token(organization_id: int, invoice_id: int, link_epoch: int) -> str:
    return _TOKENS.make(f"{organization_id}.{invoice_id}", link_epoch)


def pdf_url(organization_id: int, invoice_id: int, link_epoch: int) -> str:
    return f"{settings.BASE_URL}/v1/invoices/pdf/{pdf_token(organization_id, invoice_id, link_epoch)}"


def read_pdf_token(token: str) -> tuple[int, int, int] | None:
    """(organization_id, invoice_id, link_epoch) of a valid, unexpired token; None otherwise."""
    claims = _TOKENS.read(token)
    if claims is None:
        return None
    organization_id, _, invoice_id = claims.value.partition(".")
    if not (organization_id.isdigit() and invoice_id.isdigit()):
        return None
    return int(organization_id), int(invoice_id), claims.epoch
