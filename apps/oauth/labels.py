"""The sign-in and consent pages' words in each language they speak (a table, like the marketplace page's).

The language is `ui_locales` (OpenID's parameter, the first listed that the table has), else the browser's
`Accept-Language`, else English.
"""

from apps.api.scopes import describe
from apps.kernel import words
from apps.kernel.words import DEFAULT_LOCALE

LABELS = {
    "en": {
        "sign_in_title": "Sign in to connect {client}",
        "sign_in_intro": "{client} wants to connect to your organization. Sign in with your dashboard account first.",
        "username": "E-mail or username",
        "password": "Password",
        "sign_in": "Sign in",
        "sign_in_failed": "The e-mail or password is not right.",
        "too_many_failures": "Too many failed sign-in attempts. Try again in {minutes} minutes.",
        "consent_title": "Allow {client} to access your organization?",
        "consent_intro": "{client} is asking for access to the Platform API on your behalf.",
        "client_address": "After your answer you will be sent back to {host}.",
        "metadata_client": "This client is identified by {url}.",
        "scopes_heading": "It will be able to",
        "organization_legend": "Organization",
        "organization_help": (
            "Access is granted to one organization. Only organizations whose settings you manage are listed."
        ),
        "locked_note": "its plan does not include API access",
        "inactive_note": "inactive",
        "allow": "Allow access",
        "deny": "Deny",
        "revoke_note": "You can revoke this access at any time in the admin (OAuth grants).",
        "signed_in_as": "Signed in as {user}.",
        "error_title": "This connection request cannot be completed",
        "error_intro": "The application that sent you here made a request that cannot be processed:",
        "error_back": "Close this page and try again from the application, or contact its developer.",
        "pick_organization": "Choose an organization.",
    },
    "es": {
        "sign_in_title": "Inicia sesión para conectar {client}",
        "sign_in_intro": "{client} quiere conectarse a tu organización. Primero inicia sesión con tu cuenta del panel.",
        "username": "Correo electrónico o usuario",
        "password": "Contraseña",
        "sign_in": "Iniciar sesión",
        "sign_in_failed": "El correo electrónico o la contraseña no son correctos.",
        "too_many_failures": "Demasiados intentos fallidos. Vuelve a intentarlo dentro de {minutes} minutos.",
        "consent_title": "¿Permitir que {client} acceda a tu organización?",
        "consent_intro": "{client} solicita acceso a la API de la plataforma en tu nombre.",
        "client_address": "Después de tu respuesta volverás a {host}.",
        "metadata_client": "Este cliente se identifica con {url}.",
        "scopes_heading": "Podrá",
        "organization_legend": "Organización",
        "organization_help": (
            "El acceso se concede a una sola organización. "
            "Solo aparecen las organizaciones cuya configuración gestionas."
        ),
        "locked_note": "su plan no incluye acceso a la API",
        "inactive_note": "inactiva",
        "allow": "Permitir acceso",
        "deny": "Denegar",
        "revoke_note": "Puedes revocar este acceso en cualquier momento en la administración (OAuth grants).",
        "signed_in_as": "Sesión iniciada como {user}.",
        "error_title": "No se puede completar esta solicitud de conexión",
        "error_intro": "La aplicación que te ha enviado aquí ha hecho una solicitud que no se puede procesar:",
        "error_back": "Cierra esta página y vuelve a intentarlo desde la aplicación, o contacta con su desarrollador.",
        "pick_organization": "Elige una organización.",
    },
}

SCOPE_WORDS_ES = {
    "*": "Todo en tu organización, incluidas las capacidades que se añadan más adelante",
    "read": "Ver",
    "write": "Crear y modificar",
    "delete": "Eliminar",
    "publish": "Publicar",
}

RESOURCE_WORDS_ES = {
    "classes": "clases, tipos de clase y horarios",
    "checkins": "registros de entrada",
    "content": "contenido",
    "website": "el sitio web",
    "media": "la biblioteca multimedia",
    "clubs": "la información de los clubes",
    "transactions": "transacciones e informes de ingresos",
    "invoices": "facturas",
    "areas": "pistas, tipos de pista, bloqueos y disponibilidad",
    "bookings": "reservas, jugadores y listas de clase",
    "contacts": "contactos",
    "instructors": "instructores",
    "plans": "planes y categorías de planes",
    "memberships": "membresías",
    "products": "productos y categorías",
    "forms": "formularios",
    "organization": "la configuración de la organización",
    "revenue-accounts": "cuentas de ingresos",
    "pricing-rules": "reglas de precios",
    "booking-policies": "políticas de reserva",
    "document-rules": "reglas de documentos",
    "templates": "plantillas de correo y SMS",
    "events": "eventos y entradas",
    "messages": "mensajes (solo borradores)",
    "analytics": "totales de estadísticas",
    "webhooks": "webhooks",
}


def page_locale(ui_locales: str | None, accept_language: str | None) -> str:
    for candidate in (ui_locales or "").split():
        language = candidate.lower().replace("_", "-").split("-")[0]
        if language in LABELS:
            return language
    weighted = []
    for index, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        weighted.append((-quality, index, tag.strip().lower().split("-")[0]))
    for _, _, language in sorted(weighted):
        if language in LABELS:
            return language
    return DEFAULT_LOCALE


class Labels(words.Labels):
    table = LABELS

    def scope(self, scope: str) -> str:
        """A scope in words: the registry's description, or in Spanish its action and resource."""
        if self.locale != "es":
            return describe(scope)
        if scope in SCOPE_WORDS_ES:
            return SCOPE_WORDS_ES[scope]
        resource, _, action = scope.partition(":")
        verb = SCOPE_WORDS_ES.get(action)
        noun = RESOURCE_WORDS_ES.get(resource)
        return f"{verb} {noun}" if verb and noun else describe(scope)
