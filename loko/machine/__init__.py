"""Machine translation: an organization's providers and the suggestions they make.

- ``service.py``: the providers' configuration (owners and admins of the organization; the
  API key encrypted, never answered), the setup check, and the suggestions for a key; every
  provider call outside any transaction, through ``loko.outbound``.
- ``masking.py``: the placeholders, tags and URLs a provider must keep, replaced by tokens
  before the call and verified after; the one way in and out of every provider.
- ``providers/``: DeepL, LibreTranslate and an OpenAI-compatible chat API behind one small
  interface (``providers/base.py``): batching, timeouts, 429 and ``Retry-After``, errors
  worded without the key.
"""
