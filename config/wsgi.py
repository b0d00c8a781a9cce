import os

from django.core.wsgi import get_wsgi_application

from config import request_memory
from config.production import refuse_development_secrets

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
refuse_development_secrets()
application = get_wsgi_application()
request_memory.connect()
