"""The marketplace page's own words in each language it speaks, and how it writes dates and money there.

A small table rather than gettext catalogues: the page has a few dozen labels, and a table needs no compiled `.mo`
files in the repository or `msgfmt` on the build machine. A language missing here falls back to English.
"""

import datetime as dt
from decimal import Decimal

from babel.dates import format_date

from apps.kernel import words
from apps.kernel.money import format_money
from apps.kernel.words import DEFAULT_LOCALE

LABELS = {
    "en": {
        "page_title": "{club} – courts, classes and free times",
        "skip": "Skip to the free times",
        "about": "About the club",
        "contact": "Contact",
        "address": "Address",
        "phone": "Phone",
        "email": "E-mail",
        "website": "Website",
        "amenities": "Amenities",
        "sports": "Sports",
        "rating": "Rating: {average} out of 5 ({total} reviews)",
        "courts": "Courts and prices",
        "courts_caption": "Hourly rates, tax included, in {currency}",
        "court": "Court",
        "court_sports": "Sports",
        "court_kind": "Type",
        "indoor": "Indoor",
        "outdoor": "Outdoor",
        "hourly_rate": "Price per hour",
        "no_rate": "Ask the club",
        "no_courts": "This club has no courts listed.",
        "free_times": "Free court times",
        "free_times_on": "Free court times on {date}",
        "date": "Date",
        "duration": "Duration",
        "minutes": "{n} minutes",
        "show": "Show free times",
        "prices_note": "Prices for non-members, tax included, for the whole booking.",
        "no_free_times": "No free times on this day.",
        "closed": "The club is closed on this day.",
        "selected": "Selected",
        "selected_heading": "Your selected time",
        "selected_summary": "{court}, {date}, {start}–{end}",
        "price": "Price",
        "unavailable": "The time you chose ({court}, {date} at {time}) is no longer free. Pick another time below.",
        "book_heading": "Book with the club",
        "book_note": "Booking and payment happen with the club itself.",
        "book_website": "Book on the club's website",
        "book_phone": "Call the club to book: {phone}",
        "classes": "Upcoming classes",
        "classes_note": "The next 14 days.",
        "no_classes": "No classes in the next 14 days.",
        "class_time": "{date}, {start}–{end}",
        "instructors": "With {names}",
        "free": "Free",
        "spots_left": "{n} spots left",
        "full": "Full",
        "calendar": "Subscribe to the class calendar",
        "timezone_note": "Times are on the club's clock ({timezone}).",
        "not_found_title": "Club not found",
        "not_found": "There is no club at this address.",
        "bad_request_title": "This link could not be read",
        "bad_request": "Some of the link's values are not valid:",
        "back": "Show the club's page",
        "invalid_date": "The date must be a day in the form YYYY-MM-DD.",
        "invalid_time": "The time must be in the form HH:MM.",
        "invalid_area": "The court must be one of this club's courts.",
        "invalid_duration": "The duration must be 30, 60, 90 or 120 minutes.",
        "language": "Language",
    },
    "es": {
        "page_title": "{club}: pistas, clases y horas libres",
        "skip": "Ir a las horas libres",
        "about": "Sobre el club",
        "contact": "Contacto",
        "address": "Dirección",
        "phone": "Teléfono",
        "email": "Correo electrónico",
        "website": "Sitio web",
        "amenities": "Servicios",
        "sports": "Deportes",
        "rating": "Valoración: {average} de 5 ({total} opiniones)",
        "courts": "Pistas y precios",
        "courts_caption": "Precio por hora, impuestos incluidos, en {currency}",
        "court": "Pista",
        "court_sports": "Deportes",
        "court_kind": "Tipo",
        "indoor": "Cubierta",
        "outdoor": "Exterior",
        "hourly_rate": "Precio por hora",
        "no_rate": "Consultar al club",
        "no_courts": "Este club no tiene pistas publicadas.",
        "free_times": "Horas libres de las pistas",
        "free_times_on": "Horas libres el {date}",
        "date": "Fecha",
        "duration": "Duración",
        "minutes": "{n} minutos",
        "show": "Ver horas libres",
        "prices_note": "Precios para no socios, impuestos incluidos, por la reserva completa.",
        "no_free_times": "No hay horas libres este día.",
        "closed": "El club está cerrado este día.",
        "selected": "Seleccionada",
        "selected_heading": "La hora elegida",
        "selected_summary": "{court}, {date}, {start}–{end}",
        "price": "Precio",
        "unavailable": "La hora elegida ({court}, {date} a las {time}) ya no está libre. Elige otra hora abajo.",
        "book_heading": "Reserva con el club",
        "book_note": "La reserva y el pago se hacen con el propio club.",
        "book_website": "Reservar en la web del club",
        "book_phone": "Llama al club para reservar: {phone}",
        "classes": "Próximas clases",
        "classes_note": "Los próximos 14 días.",
        "no_classes": "No hay clases en los próximos 14 días.",
        "class_time": "{date}, {start}–{end}",
        "instructors": "Con {names}",
        "free": "Gratis",
        "spots_left": "Quedan {n} plazas",
        "full": "Completa",
        "calendar": "Suscribirse al calendario de clases",
        "timezone_note": "Las horas son las del club ({timezone}).",
        "not_found_title": "Club no encontrado",
        "not_found": "No hay ningún club en esta dirección.",
        "bad_request_title": "No se ha podido leer este enlace",
        "bad_request": "Algunos valores del enlace no son válidos:",
        "back": "Ver la página del club",
        "invalid_date": "La fecha debe ser un día con el formato AAAA-MM-DD.",
        "invalid_time": "La hora debe tener el formato HH:MM.",
        "invalid_area": "La pista debe ser una de las pistas de este club.",
        "invalid_duration": "La duración debe ser de 30, 60, 90 o 120 minutos.",
        "language": "Idioma",
    },
}

# Babel's CLDR names and the page's own word order: `Tuesday 3 March 2031` / `martes 3 de marzo de 2031`.
DATE_PATTERNS = {"en": "EEEE d MMMM y", "es": "EEEE d 'de' MMMM 'de' y"}


def page_locale(requested: str | None, default_language: str | None) -> str:
    """The language of the page: `?locale=` (its language part: `es-ES` is `es`), else the organization's default
    language, else English, whichever the table has first."""
    for candidate in (requested, default_language):
        language = (candidate or "").strip().lower().replace("_", "-").split("-")[0]
        if language in LABELS:
            return language
    return DEFAULT_LOCALE


class Labels(words.Labels):
    """The gym page's words in one language, with its dates."""

    table = LABELS

    def date(self, day: dt.date) -> str:
        """`Tuesday 3 March 2031` / `martes 3 de marzo de 2031`."""
        return format_date(day, DATE_PATTERNS[self.locale], locale=self.locale)

    def money(self, amount: Decimal | float | None, currency: str) -> str:
        """`€24.20` / `24,20 €`, at the currency's precision."""
        return format_money(amount, currency, self.locale)
