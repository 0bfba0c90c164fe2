"""The Django app: listing ``pyjq.contrib.django`` in INSTALLED_APPS adds the jq_install and jq_worker commands."""

from __future__ import annotations

from django.apps import AppConfig


class JQConfig(AppConfig):
    name = "pyjq.contrib.django"
    label = "pyjq_django"  # "django" would clash with Django's own labels
    verbose_name = "jq job queue"
