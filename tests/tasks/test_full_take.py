"""``tasks rebuild --take``: a rebuilt task replaces the task of its id, and one the suite left out
(issue #33: incoherent, not shipped until rebuilt) joins it again in recipe order."""

from __future__ import annotations

from devicesworld.tasks import full


def test_a_taken_task_replaces_its_id_and_a_left_out_one_comes_back_in_recipe_order() -> None:
    pool = full.load_full()[:40]
    left_out, replaced = pool[5], pool[9]
    renamed = replaced.model_copy(update={"instruction": replaced.instruction + " (rebuilt)"})
    stranger = pool[0].model_copy(update={"id": "not-a-recipe-id"})
    without = [t for t in pool if t.id != left_out.id]
    merged = full.with_taken(without, {left_out.id: left_out, replaced.id: renamed, stranger.id: stranger})
    assert [t.id for t in merged] == [t.id for t in pool]  # back in its place; no id outside the recipe
    assert merged[9].instruction.endswith("(rebuilt)")
