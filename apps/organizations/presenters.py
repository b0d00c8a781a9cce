"""Response bodies of the organization resources (plain functions over model rows)."""

from . import services


def present_settings(organization) -> dict:
    return {
        "id": organization.id,
        "name": organization.name,
        "defaultLanguage": organization.default_language,
        "offeredLanguages": services.offered_languages(organization),
        "bookingCardNames": services.booking_card_names(organization),
        "updatedAt": organization.updated_at,
    }
