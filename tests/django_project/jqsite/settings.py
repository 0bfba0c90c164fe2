"""Settings of the test project: one PostgreSQL database (JQ_DJANGO_DSN, a libpq conninfo) and the jq tasks backend."""

import os

from psycopg.conninfo import conninfo_to_dict

_db = conninfo_to_dict(os.environ["JQ_DJANGO_DSN"])

SECRET_KEY = "tests-only"
DEBUG = False
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "pyjq.contrib.django",
    "shop",
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _db["dbname"],
        "USER": _db.get("user", ""),
        "PASSWORD": _db.get("password", ""),
        "HOST": _db.get("host", ""),
        "PORT": _db.get("port", ""),
    }
}

TASKS = {
    "default": {
        "BACKEND": "pyjq.contrib.django.JQTaskBackend",
        "QUEUES": ["default", "emails"],
        "OPTIONS": {
            "CONCURRENCY": 4,
            "WORKER": {"poll_interval": 0.5, "tick": False, "schedules": False},
        },
    }
}
