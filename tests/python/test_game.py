# quax.Game against the C++ API: every variant, move by move; and its errors.
import copy

import numpy as np
import pytest

import quax
from conftest import reference_game

# Every variant at a small size it allows (quikquax and quadhex: even sizes; quady: odd; quady2: 4k+1).
SMALL = {"quax": 5, "link": 5, "quickway": 5, "crossway": 5, "quadrex": 5, "quikquax": 6, "torax": 5,
         "stymie": 5, "hex": 5, "quadhex": 6, "y": 5, "quady": 7, "quady2": 9}


def test_every_variant_is_covered():
    assert sorted(v["name"] for v in quax.variants()) == sorted(SMALL)


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_random_games_agree_with_the_cpp_api(variant):
    for seed in (1, 2, 3):
        ref = reference_game(variant, SMALL[variant], seed)
        game = quax.Game(variant, SMALL[variant])
        for ply in ref["plies"]:
            assert not game.is_over
            assert game.to_move == ply["to_move"]
            assert game.legal_actions() == ply["legal"]
            mask = game.legal_mask()
            assert mask.dtype == np.bool_ and np.flatnonzero(mask).tolist() == ply["legal"]
            assert np.flatnonzero(game.net_legal_mask()).tolist() == ply["net_legal"]
            obs = game.observation()
            assert obs.dtype == np.float32 and obs.shape == (len(game.plane_names), game.size, game.size)
            assert obs.ravel().tolist() == ply["planes"]
            assert game.action_to_text(ply["action"]) == ply["text"]
            game.apply(ply["action"])
        assert game.is_over and game.winner == ref["winner"] and game.to_move is None
        assert game.record() == ref["record"]
        assert game.legal_actions() == [] and not game.legal_mask().any()
        replayed = quax.Game.from_record(variant, ref["record"], size=SMALL[variant])
        assert replayed.position_key == game.position_key and replayed.winner == game.winner


def test_net_frame_maps_back_to_the_board_frame():
    game = quax.Game("quax", 7)
    rng = np.random.default_rng(5)
    while not game.is_over:
        legal = game.legal_actions()
        net = game.net_legal_mask()
        for a in legal:
            assert net[game.to_net_action(a)] and game.from_net_action(game.to_net_action(a)) == a
        game.apply(int(rng.choice(legal)))


def test_illegal_actions_raise_and_change_nothing():
    game = quax.Game("quax", 5)
    game.apply_text("c3")
    before = (game.position_key, game.move_number, game.record())
    with pytest.raises(ValueError, match="not on this board"):
        game.apply(10_000)
    with pytest.raises(ValueError, match="not on this board"):
        game.apply(-1)
    with pytest.raises(ValueError):
        game.apply(game.text_to_action("c3"))  # occupied
    with pytest.raises(ValueError):
        game.apply_text("z99")
    with pytest.raises(ValueError):
        game.apply_text("c3")
    assert (game.position_key, game.move_number, game.record()) == before
    assert game.why_illegal(game.text_to_action("c3")) != ""
    assert not game.is_legal(game.text_to_action("c3")) and game.is_legal(game.text_to_action("a1"))


def test_bad_games_raise():
    with pytest.raises(ValueError, match="unknown variant 'quux'"):
        quax.Game("quux")
    with pytest.raises(ValueError):
        quax.Game("quax", 2)
    with pytest.raises(ValueError):
        quax.Game("quikquax", 5)  # even sizes only
    with pytest.raises(ValueError):
        quax.Game.from_record("quax", "c3 c3", size=5)


def test_moves_in_notation_replay_a_game_with_links():
    for seed in range(1, 40):
        ref = reference_game("quax", 7, seed)
        if any("-" in p["text"] for p in ref["plies"]):
            break
    game = quax.Game("quax", 7)
    for ply in ref["plies"]:
        game.apply_text(ply["text"])
        assert game.actions[-1] == ply["action"]
    assert game.winner == ref["winner"]
    assert sum(len(game.links(p)) for p in ("black", "white")) > 0


def test_clone_is_independent():
    game = quax.Game("hex", 5)
    game.apply_text("c3")
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert game.move_number == 1 and twin.move_number == 2
    assert copy.deepcopy(game).position_key == game.position_key


def test_help_reads_well():
    for thing in (quax.Game, quax.VectorEnv, quax.Search, quax.Model):
        assert thing.__doc__ and len(thing.__doc__.splitlines()) > 3
    assert "apply" in quax.Game.__dict__ and quax.Game.apply.__doc__


def test_a_rules_file_is_a_game(tmp_path):
    """quax.Game takes a rules file where it takes a name (docs/VARIANTS.md): twostep's turns
    of two stones after the first, and a file no engine plays refused naming the field."""
    import os
    source = os.environ.get("QUAX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    game = quax.Game(os.path.join(source, "examples", "variants", "twostep.yaml"), 5)
    assert (game.variant, game.size, game.swap) == ("twostep", 5, False)
    movers = []
    for move in ["c3", "a1", "e5", "b2", "d4"]:
        movers.append(game.to_move)
        game.apply_text(move)
    assert movers == ["black", "white", "white", "black", "black"] and game.to_move == "white"
    assert quax.Game("twostep", 7).size == 7  # once read, its name is known
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ndiagonal: link\nstones_per_turn: [1, 2]\npie_rule: off\nsizes: {default: 5}\n")
    with pytest.raises(ValueError, match="stones_per_turn: several stones a turn are played with diagonal"):
        quax.Game(str(bad))
