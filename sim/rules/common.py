"""Fields and validators shared by the stat blocks and options of every rule system."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from sim.engine.dice import DiceExpr
from sim.engine.tactics import RETARGET, TARGETS

#: Largest roll or number a dice field may give (hit points, damage): far above any stat block,
#: and small enough that sums over thousands of combatants stay exact in every table.
MAX_DICE_VALUE = 10**9


def _dice_text(value: Any) -> str | int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("dice notation such as 2d6+3, or a whole number")
    if isinstance(value, str) and len(value) > 40:
        raise ValueError("dice notation of at most 40 characters, such as 2d6+3")
    expr = DiceExpr.parse(value)
    if max(abs(expr.minimum), abs(expr.maximum)) > MAX_DICE_VALUE:
        raise ValueError(f"dice or a number within ±{MAX_DICE_VALUE:,}")
    return value


def _hit_points(value: Any) -> str | int:
    value = _dice_text(value)
    expr = DiceExpr.parse(value)
    if expr.minimum < 1:
        raise ValueError(
            f"hit points of at least 1 (the lowest roll of {value!r} is {expr.minimum})"
        )
    return value


def _damage(value: Any) -> str | int:
    value = _dice_text(value)
    if DiceExpr.parse(value).maximum < 1:
        raise ValueError("damage that can deal at least 1 point")
    return value


#: Dice notation (``2d6+3``) or a whole number.
DiceText = Annotated[str | int, AfterValidator(_dice_text)]
#: Hit points: a whole number >= 1 or dice whose lowest roll is >= 1, rolled per combat.
HitPoints = Annotated[str | int, AfterValidator(_hit_points)]
#: Damage of a hit in dice notation; its highest roll must be at least 1.
Damage = Annotated[str | int, AfterValidator(_damage)]


class Strict(BaseModel):
    """A model that refuses unknown keys (a typo in a scenario is an error, never ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class TargetTactics(Strict):
    """How a combatant chooses whom to attack."""

    target: str = Field("weakest", description="random, weakest, strongest, focus or nearest.")
    retarget: str = Field(
        "when_out", description="when_out: keep a target until it is out; each_action: re-choose."
    )

    @field_validator("target")
    @classmethod
    def _known_target(cls, value: str) -> str:
        if value not in TARGETS:
            raise ValueError(f"one of {', '.join(TARGETS)}")
        return value

    @field_validator("retarget")
    @classmethod
    def _known_retarget(cls, value: str) -> str:
        if value not in RETARGET:
            raise ValueError(f"one of {', '.join(RETARGET)}")
        return value
