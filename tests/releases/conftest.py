"""The page tests' browser fixture, for the Releases page tests."""

from tests.pages.conftest import page_as  # noqa: F401
