import os

from django.core.wsgi import get_wsgi_application

from config.production import refuse_development_secrets

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
refuse_development_secrets()
application = get_wsgi_application()

# A server process builds the marketplace's place index at start rather than on its first place lookup.
from apps.marketplace.gazetteer import warm_in_background  # noqa: E402

warm_in_background()

# Likewise the MCP server's tool catalogue (generated from the OpenAPI document, about 2 s).
from apps.mcp.catalogue import warm_in_background as warm_mcp_catalogue  # noqa: E402

warm_mcp_catalogue()
