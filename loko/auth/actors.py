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
