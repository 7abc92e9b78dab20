"""`python -m cnsim` is the `cnsim` command."""

from .cli import main

main()
