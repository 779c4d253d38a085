"""``python -m loko``: the ``loko`` command."""

from loko.cli import main

if __name__ == "__main__":
    main(prog_name="loko")
