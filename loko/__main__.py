"""``python -m loko``: the ``loko`` command."""

from loko.entry import main

if __name__ == "__main__":
    main()
