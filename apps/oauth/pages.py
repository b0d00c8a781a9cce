"""`{AUTH_URL}/oauth/authorize`: the authorization endpoint, its sign-in page and its consent page.

Server-rendered, no JavaScript; the form posts back to the same URL (the authorization request stays in the query
string, so it is validated again on every step and nothing is kept in between). A request that cannot name a valid
client and redirect URI gets an error page here; any other error goes back to the client (RFC 6749 §4.1.2.1) with
`state` and `iss`. Consent needs `settings.manage.organization` in the organization picked; a free, trial or
inactive organization is `access_denied`.
"""

from urllib.parse import urlsplit

from django.contrib.auth import authenticate, login
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.oauth2_backends import _add_iss_to_redirect, get_oauthlib_core
from oauthlib.oauth2.rfc6749 import errors

from apps.organizations.admin_login import AdminLoginThrottle
from apps.organizations.models import organizations_managed_by

from . import cimd
from .labels import Labels, page_locale
from .models import Client
from .resources import issuer, known_resource, mcp_resource

AUTHORIZATION_PARAMETERS = (
    "client_id",
    "redirect_uri",
    "response_type",
    "state",
    "code_challenge",
    "code_challenge_method",
)


class FatalRequest(Exception):
    """The request cannot be answered by a redirect to the client: shown on an error page instead."""


def _security_headers(response, redirect_uri: str | None = None):
    """A strict policy: no script at all, styles from this site, forms post here (and the redirect after consent
    may go to the client's redirect URI, which browsers check against `form-action`)."""
    targets = ["'self'"]
    if redirect_uri:
        parts = urlsplit(redirect_uri)
        if parts.scheme in ("http", "https") and parts.netloc:
            targets.append(f"{parts.scheme}://{parts.netloc}")
        elif parts.scheme:
            targets.append(f"{parts.scheme}:")
    response["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'self'; img-src 'self'; "
        f"form-action {' '.join(targets)}; frame-ancestors 'none'; base-uri 'none'"
    )
    response["Referrer-Policy"] = "same-origin"  # no-referrer would make browsers send `Origin: null`, failing CSRF
    response["X-Frame-Options"] = "DENY"
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    return response


class RedirectAnyScheme(HttpResponseRedirect):
    """A redirect to a registered redirect URI, whatever its scheme (native apps register their own)."""

    def __init__(self, uri):
        self.allowed_schemes = [urlsplit(uri).scheme or "https"]
        super().__init__(uri)


def redirect_to_client(uri: str):
    return _security_headers(RedirectAnyScheme(_add_iss_to_redirect(uri, issuer())))


@method_decorator(never_cache, name="dispatch")
@method_decorator(csrf_protect, name="dispatch")
class AuthorizeView(View):
    http_method_names = ["get", "post"]

    # --- the request ----------------------------------------------------------------------------------------
    def labels(self, request) -> Labels:
        return Labels(page_locale(request.GET.get("ui_locales"), request.META.get("HTTP_ACCEPT_LANGUAGE")))

    def validate(self, request):
        """`(client, scopes, credentials, resources)` of a valid authorization request; FatalRequest when there
        is no client or redirect URI to answer; OAuthToolkitError (answered by redirect) for the rest."""
        client_id = request.GET.get("client_id", "")
        if "\x00" in request.get_full_path() or len(request.get_full_path()) > 8000:
            raise FatalRequest("The request is malformed.")
        if cimd.is_metadata_url(client_id):
            try:
                cimd.resolve(client_id)
            except cimd.MetadataDocumentError as error:
                raise FatalRequest(str(error)) from error
        request.oauth_params = []  # the consent form's fields are not authorization parameters
        core = get_oauthlib_core()
        try:
            scopes, credentials = core.validate_authorization_request(request)
        except FatalClientError as error:
            raise FatalRequest(error.oauthlib_error.description or "The client or redirect URI is not valid.")
        client = Client.objects.get(client_id=credentials["client_id"])
        redirect_uri = credentials["redirect_uri"]
        state = credentials.get("state")
        if credentials.get("code_challenge_method") != "S256":
            raise self.client_error(
                errors.InvalidRequestError, redirect_uri, state, "PKCE with code_challenge_method=S256 is required."
            )
        resources = request.GET.getlist("resource") or [mcp_resource()]
        if any(not known_resource(resource) for resource in resources):
            raise OAuthToolkitError(
                errors.CustomOAuth2Error(
                    error="invalid_target",
                    description="A requested resource is not served by this authorization server.",
                    state=state,
                ),
                redirect_uri=redirect_uri,
            )
        return client, scopes, credentials, resources

    @staticmethod
    def client_error(error_class, redirect_uri, state, description):
        return OAuthToolkitError(error_class(description=description, state=state), redirect_uri=redirect_uri)

    def error_redirect(self, error: OAuthToolkitError):
        oauthlib_error = error.oauthlib_error
        return redirect_to_client(oauthlib_error.in_uri(oauthlib_error.redirect_uri))

    def error_page(self, request, message: str, status: int = 400):
        labels = self.labels(request)
        response = render(
            request, "oauth/error.html", {"labels": labels, "locale": labels.locale, "message": message}, status=status
        )
        return _security_headers(response)

    def answer_valid_request(self, request, answer):
        """`answer(request, client, scopes, credentials, resources)` when the authorization request is valid; else
        the error page (no client or redirect URI to answer) or the error redirect to the client."""
        try:
            client, scopes, credentials, resources = self.validate(request)
        except FatalRequest as error:
            return self.error_page(request, str(error))
        except OAuthToolkitError as error:
            return self.error_redirect(error)
        return answer(request, client, scopes, credentials, resources)

    # --- GET: sign-in or consent ----------------------------------------------------------------------------
    def get(self, request):
        return self.answer_valid_request(request, self.sign_in_or_consent)

    def sign_in_or_consent(self, request, client, scopes, credentials, resources):
        if not request.user.is_authenticated:
            return self.sign_in_page(request, client, credentials, AuthenticationForm(request))
        return self.consent_or_refusal(request, client, scopes, credentials)

    def consent_or_refusal(self, request, client, scopes, credentials, error=None):
        organizations = list(organizations_managed_by(request.user).order_by("name"))
        if not organizations:
            return self.error_redirect(
                self.client_error(
                    errors.AccessDeniedError,
                    credentials["redirect_uri"],
                    credentials.get("state"),
                    "The signed-in user does not manage the settings of any organization "
                    "(settings.manage.organization is needed to grant access).",
                )
            )
        return self.consent_page(request, client, scopes, credentials, organizations, error)

    def client_label(self, client) -> str:
        return client.name or urlsplit(client.client_id).hostname or client.client_id

    def sign_in_page(self, request, client, credentials, form, error=None, status=200):
        labels = self.labels(request)
        context = {
            "labels": labels,
            "locale": labels.locale,
            "title": labels.get("sign_in_title", client=self.client_label(client)),
            "intro": labels.get("sign_in_intro", client=self.client_label(client)),
            "form": form,
            "error": error,
            "action": request.get_full_path(),
        }
        response = render(request, "oauth/sign_in.html", context, status=status)
        return _security_headers(response, credentials["redirect_uri"])

    def consent_page(self, request, client, scopes, credentials, organizations, error=None):
        labels = self.labels(request)
        client_name = self.client_label(client)
        redirect_host = urlsplit(credentials["redirect_uri"])
        choices = []
        for organization in organizations:
            note = ""
            if not organization.is_active:
                note = labels.get("inactive_note")
            elif organization.api_locked:
                note = labels.get("locked_note")
            choices.append({"id": organization.id, "name": organization.name, "note": note})
        context = {
            "labels": labels,
            "locale": labels.locale,
            "title": labels.get("consent_title", client=client_name),
            "intro": labels.get("consent_intro", client=client_name),
            "client_address": labels.get("client_address", host=redirect_host.netloc or f"{redirect_host.scheme}:"),
            "metadata_note": labels.get("metadata_client", url=client.client_id)
            if client.registration_source == Client.RegistrationSource.CIMD
            else "",
            "scopes": [{"name": scope, "words": labels.scope(scope)} for scope in scopes],
            "organizations": choices,
            "checked": choices[0]["id"] if len(choices) == 1 else None,
            "signed_in_as": labels.get("signed_in_as", user=request.user.get_username()),
            "error": error,
            "action": request.get_full_path(),
        }
        response = render(request, "oauth/consent.html", context, status=400 if error else 200)
        return _security_headers(response, credentials["redirect_uri"])

    # --- POST: sign in, or answer the consent ---------------------------------------------------------------
    def post(self, request):
        return self.answer_valid_request(request, self.answer_form)

    def answer_form(self, request, client, scopes, credentials, resources):
        if request.POST.get("step") == "sign_in":
            return self.sign_in(request, client, credentials)
        if not request.user.is_authenticated:
            return self.sign_in_page(request, client, credentials, AuthenticationForm(request))
        redirect_uri, state = credentials["redirect_uri"], credentials.get("state")
        if request.POST.get("decision") != "allow":
            return self.error_redirect(
                self.client_error(errors.AccessDeniedError, redirect_uri, state, "The user denied access.")
            )
        managed = {organization.id: organization for organization in organizations_managed_by(request.user)}
        chosen = managed.get(_int(request.POST.get("organization")))
        if chosen is None:
            if not managed:
                return self.consent_or_refusal(request, client, scopes, credentials)
            labels = self.labels(request)
            return self.consent_or_refusal(request, client, scopes, credentials, labels.get("pick_organization"))
        if not chosen.is_active or chosen.api_locked:
            return self.error_redirect(
                self.client_error(
                    errors.AccessDeniedError,
                    redirect_uri,
                    state,
                    "The organization is inactive, or its plan (free or trial) does not include API access.",
                )
            )
        credentials = {key: credentials[key] for key in AUTHORIZATION_PARAMETERS if credentials.get(key) is not None}
        credentials.update(organization_id=chosen.id, resource=resources)
        core = get_oauthlib_core()
        try:
            uri, _, _, _ = core.create_authorization_response(
                request=request, scopes=list(scopes), credentials=credentials, allow=True
            )
        except OAuthToolkitError as error:
            return self.error_redirect(error)
        return redirect_to_client(uri)

    def sign_in(self, request, client, credentials):
        labels = self.labels(request)
        form = AuthenticationForm(request, data=request.POST)
        username = request.POST.get("username", "")
        throttle = AdminLoginThrottle(request, username)
        if throttle.is_blocked():
            message = labels.get("too_many_failures", minutes=max(1, throttle.window // 60))
            return self.sign_in_page(request, client, credentials, AuthenticationForm(request), message, 429)
        user = None
        if username and request.POST.get("password"):
            user = authenticate(request, username=username, password=request.POST.get("password"))
        if user is None or not user.is_active:
            throttle.record_failure()
            return self.sign_in_page(request, client, credentials, form, labels.get("sign_in_failed"), status=400)
        throttle.clear_account()
        login(request, user)
        # Back to the same authorization request, now as a signed-in user (303: the next request is a GET).
        response = HttpResponseRedirect(request.get_full_path(), status=303)
        response.status_code = 303
        return _security_headers(response, credentials["redirect_uri"])


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
