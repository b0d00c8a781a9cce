# The app image of compose.yaml: one image for web (gunicorn), the Celery workers and beat. See docs/deployment.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# Static files for the admin and the API docs page, served by WhiteNoise. DEBUG only lifts the start-up secret check
# for this build step; the containers run with DEBUG off and real secrets.
RUN DEBUG=true python manage.py collectstatic --noinput \
    && useradd --system --no-create-home --uid 10001 app
USER app

EXPOSE 8000
# Workers: WEB_CONCURRENCY (gunicorn reads it itself).
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--timeout", "30", "--access-logfile", "-"]
