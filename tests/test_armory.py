"""The armory: gear a scenario names (``weapon: greatsword``), changed field by field if wished.

Every item validates into its model with exactly the fields the armory gives it, a ``base``
item takes the fields written after it, an unknown name is refused at its line with the closest
name, and every item is in its rule system's docs with the passage its numbers come from.
"""

from __future__ import annotations

import pytest

from sim.rules.prop3 import armory as prop3_armory
from sim.rules.prop3.models import ArmorModel, MissileModel, WeaponModel
from sim.rules.target10 import armory as target10_armory
from sim.rules.target10.models import MeleeWeapon
from sim.scenario.loader import parse_scenario
from sim.scenario.problems import ScenarioError
from tests.conftest import ROOT

TABLES = [
    (prop3_armory.WEAPONS, WeaponModel, "prop3.md"),
    (prop3_armory.ARMORS, ArmorModel, "prop3.md"),
    (prop3_armory.MISSILES, MissileModel, "prop3.md"),
    (target10_armory.WEAPONS, MeleeWeapon, "target10.md"),
]
ITEMS = [(name, item, model, doc) for table, model, doc in TABLES for name, item in table.items()]


@pytest.mark.parametrize(("name", "item", "model", "doc"), ITEMS, ids=[i[0] for i in ITEMS])
def test_an_item_is_its_fields(name, item, model, doc):
    named = model.model_validate(name)
    assert named.name == name
    for key, value in item.fields.items():
        shown = getattr(named, key)
        assert shown == value or str(shown) == str(value) or getattr(shown, "text", None) == value
    assert named == model.model_validate({"name": name, **item.fields})


@pytest.mark.parametrize(("name", "item", "model", "doc"), ITEMS, ids=[i[0] for i in ITEMS])
def test_every_item_is_documented_with_its_passage(name, item, model, doc):
    page = " ".join((ROOT / "docs" / "rules" / doc).read_text(encoding="utf-8").split())
    assert f"`{_key(model)}: {name}`" in page
    assert " ".join(item.passage.split()) in page
    if item.ruling:
        assert " ".join(item.ruling.split()) in page


def _key(model) -> str:
    return {ArmorModel: "armor", MissileModel: "missile"}.get(model, "weapon")


def test_a_base_item_is_changed_field_by_field():
    changed = WeaponModel.model_validate({"base": "greatsword", "thrust": "poor"})
    assert (changed.name, changed.slash, changed.thrust, changed.two_handed) == (
        "greatsword", "excellent", "poor", True
    )  # fmt: skip
    renamed = MeleeWeapon.model_validate({"base": "saber", "name": "cutlass", "reach": 2})
    assert (renamed.name, renamed.bonus, renamed.reach) == ("cutlass", 2, 2)
    # A stat block written in full is as it was: a name alone takes nothing from the armory.
    assert WeaponModel.model_validate({"name": "club"}).bash == "average"


SCENARIO = """\
name: armory
rules: prop3
sides:
  - name: a
    combatants:
      - {name: A, vigor: 5, weapon: greatswrod, armor: chain mail}
  - name: b
    combatants:
      - {name: B, vigor: 5, weapon: {base: clubb}, missile: bow}
"""


def test_an_unknown_item_is_refused_at_its_line_with_the_closest_name():
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(SCENARIO, file="armory.yaml")
    text = str(caught.value)
    assert "armory.yaml:6: sides.a.combatants.A.weapon: found 'greatswrod'" in text
    assert "(did you mean 'greatsword'?)" in text
    assert "armory.yaml:9:" in text and "(did you mean 'club'?)" in text


def test_a_scenario_naming_its_gear_plays():
    scenario = parse_scenario(
        SCENARIO.replace("greatswrod", "greatsword").replace("clubb", "club"), file="a.yaml"
    )
    first = scenario.combatants[0].stats
    assert first.weapon.slash == "excellent" and first.armor.thrust == "excellent"
    assert scenario.combatants[1].stats.missile.max_range == 25.0
