"""The entry point of the one-file build (``dist/loko``): the ``loko`` command."""

from loko.entry import main

if __name__ == "__main__":
    main()
