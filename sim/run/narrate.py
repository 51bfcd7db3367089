"""Narrating a combat from its trace: the text of ``combatsim replay``.

The narration reads the same events the engine emits during a run; nothing is re-rolled, so
the story told is exactly combat k of the run. It is text to print, so its control characters
are shown, never obeyed (:func:`sim.engine.text.visible`), whoever prints it.
"""

from __future__ import annotations

from sim.engine.combat import TraceEvent
from sim.engine.text import visible
from sim.rules.wording import side
from sim.scenario.schema import Scenario


def _damage(e: TraceEvent) -> str:
    by = f" from {e.actor}" if e.actor else ""
    return f"  {e.target} takes {e.data['amount']} damage{by} ({e.data['hp']} hp left)"


def _end(e: TraceEvent) -> str:
    d = e.data
    if d["reason"] == "victory":
        return f"The fight ends after {d['duration_s']:g} s: {side(d['winner'])} wins."
    if d["reason"] == "mutual":
        return f"The fight ends after {d['duration_s']:g} s: nobody is left standing (draw)."
    return f"Time limit of {d['duration_s']:g} s reached: a draw."


#: Sentences for the engine's own events; rule systems add theirs (``RuleSystem.narration_for``).
ENGINE_NARRATION = {
    "damage": _damage,
    "out": lambda e: f"  {e.actor} is out ({e.data['how']})",
    "end": _end,
}


def narrate(scenario: Scenario, trace: list[TraceEvent], combat: int, seed: int) -> str:
    """The whole story of a traced combat."""
    system = scenario.system
    sentences = {**ENGINE_NARRATION, **system.narration_for(scenario.options)}
    lines = [f"{scenario.name}: combat {combat} of seed {seed} ({system.title})"]
    current = None
    for event in trace:
        heading = system.time_label(event.t)
        if heading != current and event.kind != "end":
            lines.append(f"-- {heading}")
            current = heading
        say = sentences.get(event.kind)
        lines.append(say(event) if say else _generic(event))
    return visible("\n".join(lines) + "\n")


def _generic(e: TraceEvent) -> str:
    who = " -> ".join(x for x in (e.actor, e.target) if x)
    details = ", ".join(f"{k}={v}" for k, v in e.data.items())
    return f"  {e.kind}: {who} {details}".rstrip()
