"""Who is calling: a signed-in user or a project API key. Plain values, no ORM state."""

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class UserActor:
    id: str
    email: str
    name: str
    # The web app's language the account chose (None: the browser's); not part of who acts.
    locale: str | None = field(default=None, compare=False, metadata={"recorded": False})

    kind = "user"


@dataclass(frozen=True)
class ApiKeyActor:
    id: str
    name: str
    project_id: str
    scope: str
    # The language codes its writes are limited to (sorted); None: every language.
    languages: tuple[str, ...] | None = None
    # When the key stops working (None: never); not carried into a job's record, which acts
    # for a request the key made while it worked.
    expires_at: datetime | None = field(default=None, compare=False, metadata={"recorded": False})

    kind = "api_key"

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now


@dataclass(frozen=True)
class SystemActor:
    """Loko itself, for maintenance such as purging expired trash."""

    name: str
    id: str | None = None

    kind = "system"


Actor = UserActor | ApiKeyActor


def actor_summary(actor: Actor) -> dict:
    """The ``{type, id, name}`` record kept with history entries."""
    return {"type": actor.kind, "id": actor.id, "name": actor.name}


def actor_record(actor: "Actor | SystemActor") -> dict:
    """Every field of ``actor``, to act as it later (in a background job)."""
    return {
        "type": actor.kind,
        **{
            name: getattr(actor, name)
            for name, spec in actor.__dataclass_fields__.items()
            if spec.metadata.get("recorded", True)
        },
    }


def actor_from_record(record: dict) -> "Actor | SystemActor":
    """The actor ``actor_record`` described."""
    fields = {
        name: tuple(value) if isinstance(value, list) else value
        for name, value in record.items()
        if name != "type"
    }
    return {"user": UserActor, "api_key": ApiKeyActor, "system": SystemActor}[record["type"]](**fields)
