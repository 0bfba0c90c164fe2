"""``python -m pyjq.cli``: the same as the ``pyjq`` command."""

from . import main

main()
