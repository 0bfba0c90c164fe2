#!/usr/bin/env python
"""manage.py of the test project (tests/test_django.py): JQ_DJANGO_DSN names its database."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jqsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
