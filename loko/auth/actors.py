"""Who is calling: a signed-in user or a project API key. Plain values, no ORM state."""

from dataclasses import dataclass


@dataclass(frozen=True)
class UserActor:
    id: str
    email: str
    name: str

    kind = "user"


@dataclass(frozen=True)
class ApiKeyActor:
    id: str
    name: str
    project_id: str
    scope: str

    kind = "api_key"


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
    return {"type": actor.kind, **{name: getattr(actor, name) for name in actor.__dataclass_fields__}}


def actor_from_record(record: dict) -> "Actor | SystemActor":
    """The actor ``actor_record`` described."""
    fields = {name: value for name, value in record.items() if name != "type"}
    return {"user": UserActor, "api_key": ApiKeyActor, "system": SystemActor}[record["type"]](**fields)
