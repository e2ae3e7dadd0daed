"""python -m hostcb ...: the same as the hostcb command."""
from ._cli import main

main()
