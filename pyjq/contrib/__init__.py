"""Integrations of pyjq with other frameworks, each in its own subpackage and each an optional extra.

Nothing here is imported by ``import pyjq``: a subpackage imports its framework
only when it is itself imported (``pyjq.contrib.django`` needs ``pgjq[django]``).
"""
