"""The translation life cycle, decided in one place.

active -> trash -> active (restore), trash -> purged, active -> purged. Every single-item
transition goes through ``transition``; set-based operations select only rows in the
state they start from.
"""

from enum import Enum

from loko.errors import Conflict


class State(Enum):
    ACTIVE = "active"
    TRASHED = "trashed"
    PURGED = "purged"


class Event(Enum):
    TRASH = "trash"
    RESTORE = "restore"
    PURGE = "purge"


MOVES = {
    (State.ACTIVE, Event.TRASH): State.TRASHED,
    (State.TRASHED, Event.RESTORE): State.ACTIVE,
    (State.TRASHED, Event.PURGE): State.PURGED,
    (State.ACTIVE, Event.PURGE): State.PURGED,
}

REFUSALS = {
    (State.TRASHED, Event.TRASH): "The translation is already in the trash.",
    (State.ACTIVE, Event.RESTORE): "The translation is not in the trash.",
}


def state_of(deleted_at) -> State:
    return State.ACTIVE if deleted_at is None else State.TRASHED


def transition(state: State, event: Event) -> State:
    """The state after ``event``; Conflict for a move the life cycle does not allow."""
    target = MOVES.get((state, event))
    if target is None:
        raise Conflict(REFUSALS.get((state, event), f"Cannot {event.value} a {state.value} translation."))
    return target
