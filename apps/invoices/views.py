"""`GET /v1/invoices/pdf/<token>`: an invoice's PDF behind a signed, expiring link; no credential.

A token with a wrong signature, past its 7 days, made before the organization's link epoch was bumped, naming an
invoice that is not (or no longer) its organization's, or of an organization that is switched off (inactive, or on a
plan without API access) answers the same JSON 404 as any unknown path, so a link tells nothing about other
invoices. Each client address may open `invoice-pdf` links a limited number of times a minute (each renders a PDF;
`apps.api.public_limits`).
"""

from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt

from apps.api import public_limits
from apps.api.exceptions import error_body
from apps.api.middleware import json_response
from apps.organizations.choices import API_LOCKED_PLANS, OrganizationStatus

from .links import read_pdf_token
from .models import Invoice

ALLOWED_METHODS = ("GET", "HEAD")


def _not_found(request):
    body = error_body(404, "NOT_FOUND", "No invoice PDF at this link (it may have expired).")
    return json_response(body, 404, request)


def _too_many(request, state):
    body = error_body(
        429,
        "RATE_LIMITED",
        f"Too many requests from this address; retry in {state.reset} seconds.",
        {"bucket": state.bucket, "limit": state.limit, "windowSeconds": 60},
    )
    return json_response(body, 429, request)


@csrf_exempt
@public_limits.limit_public(public_limits.INVOICE_PDF, refuse=_too_many)
def invoice_pdf(request, token: str):
    if request.method not in ALLOWED_METHODS:
        response = json_response(
            error_body(405, "METHOD_NOT_ALLOWED", "The method is not allowed on this path."), 405, request
        )
        response["Allow"] = ", ".join(ALLOWED_METHODS)
        return response
    found = read_pdf_token(token)
    if found is None:
        return _not_found(request)
    organization_id, invoice_id, link_epoch = found
    invoice = (
        Invoice.objects.select_related("organization", "contact", "club")
        .filter(
            pk=invoice_id,
            organization_id=organization_id,
            organization__link_epoch=link_epoch,
            organization__status=OrganizationStatus.ACTIVE,
        )
        .exclude(organization__plan__in=API_LOCKED_PLANS)
        .first()
    )
    if invoice is None:
        return _not_found(request)
    from .pdf import render_invoice_pdf  # noqa: PLC0415 - fpdf2 costs every web worker 34 MB once imported

    response = HttpResponse(render_invoice_pdf(invoice, list(invoice.lines.order_by("position", "id"))))
    response["Content-Type"] = "application/pdf"
    response["Content-Disposition"] = f'inline; filename="{invoice.number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
