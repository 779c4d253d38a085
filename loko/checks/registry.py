"""Every check, by code, in the order the editor lists them."""

from loko.checks import max_length

CHECKS = {module.CODE: module for module in (max_length,)}
