"""The words the public form page writes itself, per language; languages without a table fall back to English."""

LABELS = {
    "en": {
        "required": "required",
        "required_note": "Questions marked “required” need an answer.",
        "submit": "Send",
        "choose": "Choose…",
        "error_title": "There is a problem",
        "error_prefix": "Error",
        "thanks_title": "Thank you",
        "thanks": "Your answers were sent.",
        "again": "Send another answer",
        "honeypot": "Leave this field empty",
        "not_found": "There is no form at this address.",
        "too_many": "Too many submissions from your network. Please wait a minute and try again.",
        "expired": "The form expired. Please check your answers and send them again.",
        "bad_request": "The submission could not be read. Please try again.",
        "errors": {
            "required": "This question needs an answer.",
            "too_long": "Please keep this under {limit} characters.",
            "choice": "Please choose among the listed options.",
            "date": "Please enter a date (YYYY-MM-DD).",
            "number": "Please enter a number.",
            "email": "Please enter a valid e-mail address.",
            "phone": "Please enter a valid phone number.",
            "nul": "Please remove the invisible control character (NUL) from this answer.",
        },
    },
    "es": {
        "required": "obligatorio",
        "required_note": "Las preguntas marcadas como “obligatorio” necesitan una respuesta.",
        "submit": "Enviar",
        "choose": "Elige…",
        "error_title": "Hay un problema",
        "error_prefix": "Error",
        "thanks_title": "Gracias",
        "thanks": "Hemos recibido tus respuestas.",
        "again": "Enviar otra respuesta",
        "honeypot": "Deja este campo vacío",
        "not_found": "No hay ningún formulario en esta dirección.",
        "too_many": "Demasiados envíos desde tu red. Espera un minuto y vuelve a intentarlo.",
        "expired": "El formulario ha caducado. Revisa tus respuestas y envíalas de nuevo.",
        "bad_request": "No se ha podido leer el envío. Inténtalo de nuevo.",
        "errors": {
            "required": "Esta pregunta necesita una respuesta.",
            "too_long": "Usa menos de {limit} caracteres.",
            "choice": "Elige una de las opciones de la lista.",
            "date": "Escribe una fecha (AAAA-MM-DD).",
            "number": "Escribe un número.",
            "email": "Escribe un correo electrónico válido.",
            "phone": "Escribe un número de teléfono válido.",
            "nul": "Quita el carácter de control invisible (NUL) de esta respuesta.",
        },
    },
}


def labels_for(locale: str) -> dict:
    return LABELS.get((locale or "en").split("-")[0], LABELS["en"])
