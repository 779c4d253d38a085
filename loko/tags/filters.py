"""Which keys a tag filter keeps: those with every tag of ``all_of`` and none of ``none_of``.
One SQL condition over a translation id column (the editor, the exports, find and replace,
pre-translation and bulk tagging narrow their keys with it), each tag an index lookup on the
key's tags (their primary key)."""

from dataclasses import dataclass

from sqlalchemy import and_, exists, true

from loko.tags.models import KeyTag


@dataclass(frozen=True)
class TagFilter:
    """Keys with every tag of ``all_of`` and none of ``none_of`` (both empty: every key)."""

    all_of: tuple[str, ...] = ()
    none_of: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.all_of or self.none_of)

    @classmethod
    def from_query(cls, data: dict) -> "TagFilter":
        """From the query fields ``tag`` (one tag), ``tags`` (all of them) and
        ``excludeTags`` (none of them), as the exports, the CLI and the editor name them."""
        all_of = tuple(dict.fromkeys([*((data["tag"],) if data.get("tag") else ()), *data.get("tags", ())]))
        return cls(all_of, tuple(data.get("excludeTags", ())))

    def condition(self, translation_id):
        """The SQL condition on ``translation_id`` (a column or a correlated expression)."""
        if not self:
            return true()
        conditions = [
            exists().where(KeyTag.translation_id == translation_id, KeyTag.tag == tag) for tag in self.all_of
        ]
        if self.none_of:
            conditions.append(
                ~exists().where(KeyTag.translation_id == translation_id, KeyTag.tag.in_(self.none_of))
            )
        return and_(*conditions)

    def as_query(self) -> dict:
        """The filter as query parameters (``tags`` and ``excludeTags``, comma-separated)."""
        query = {}
        if self.all_of:
            query["tags"] = ",".join(self.all_of)
        if self.none_of:
            query["excludeTags"] = ",".join(self.none_of)
        return query


# The filter that keeps every key.
NO_TAGS = TagFilter()
