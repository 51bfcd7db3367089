"""Templates: stat blocks several combatant entries share, and how an entry uses one.

An entry names a template (``template: goblin``) and may override any of its keys; a mapping
(such as ``tactics``) is merged key by key, one level deep. A problem in a key the entry took
from its template is reported at the template, where the fix is.
"""

from __future__ import annotations

import difflib
from typing import Any


def unused_templates(templates: dict, sides: Any) -> list:
    """The names of the templates (mappings) that no combatant entry names."""
    used = {
        entry.get("template")
        for side in (sides if isinstance(sides, list) else [])
        if isinstance(side, dict) and isinstance(side.get("combatants"), list)
        for entry in side["combatants"]
        if isinstance(entry, dict) and isinstance(entry.get("template"), (str, int, float))
    }
    return [
        name for name, value in templates.items() if name not in used and isinstance(value, dict)
    ]


def known_templates(name: Any, templates: dict) -> str:
    """What a bad ``template:`` should have been: the templates defined, the closest first."""
    known = ", ".join(map(str, list(templates)[:20])) or "none are defined"
    known += ", …" if len(templates) > 20 else ""
    close = difflib.get_close_matches(str(name), [str(t) for t in templates], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"a template under templates: ({known}){hint}"


def merge(template: dict, own: dict) -> dict:
    """A template's fields overridden by an entry's, mappings merged one level deep."""
    fields = dict(template)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(fields.get(key), dict):
            fields[key] = {**fields[key], **value}
        else:
            fields[key] = value
    return fields


def from_template(loc: tuple, own: dict, template: dict) -> bool:
    """Whether the key at ``loc`` of a merged entry came from the template, not the entry."""
    key = loc[0]
    if key in own:
        inner = own[key]
        if len(loc) > 1 and isinstance(inner, dict) and isinstance(template.get(key), dict):
            return loc[1] not in inner and loc[1] in template[key]
        return False
    return key in template
