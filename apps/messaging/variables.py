"""The variables a message is rendered with for each contact when it is sent."""

from apps.contacts.models import display_name

# name -> what it holds; the admin's send action refuses a draft that reads any other name.
CONTACT_VARIABLES = {
    "name": "the contact's full name",
    "firstName": "the contact's first name",
    "lastName": "the contact's last name (empty when unknown)",
    "email": "the contact's e-mail address",
    "phone": "the contact's phone number",
    "organizationName": "the organization's name",
}


def contact_variables(contact, organization) -> dict[str, str]:
    return {
        "name": display_name(contact.first_name, contact.last_name),
        "firstName": contact.first_name or "",
        "lastName": contact.last_name or "",
        "email": contact.email or "",
        "phone": contact.phone or "",
        "organizationName": organization.name,
    }
