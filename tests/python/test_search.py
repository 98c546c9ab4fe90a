# quax.Search: the project's search from Python, single and batched, and the baselines.
import re

import numpy as np
import pytest

import quax
from conftest import CHECKPOINTS

MODEL5 = str(CHECKPOINTS / "quax-5.pt")


def one_move_win():
    """Black to move in quax 5x5 with c1-c4 in place: c5, and only c5, wins at once."""
    game = quax.Game("quax", 5, swap=False)
    for move in ["c1", "a1", "c2", "a2", "c3", "a3", "c4", "a4"]:
        game.apply_text(move)
    return game


@pytest.mark.parametrize("player", ["model", "mcts:300", "uct:2000"])
def test_finds_the_winning_move(player):
    game = one_move_win()
    search = quax.Search(quax.load_model(MODEL5), simulations=100) if player == "model" else quax.Search(player)
    win = game.text_to_action("c5")
    assert search.best_action(game) == win
    won = game.clone()
    won.apply(win)
    assert won.winner == "black"
    if player != "uct:2000":
        found = search.analyze(game)
        assert found["q"][win] == pytest.approx(1.0) and found["value"] > 0.5


def win_or_lose(mover):
    """quax 5x5, `mover` to move, one cell from a win that is also the opponent's winning cell:
    Black with c1-c4 (c5; White has a5 b5 d5 e5), White with a1-d1 (e1; Black has e2-e5)."""
    moves, win = {"black": (["c1", "a5", "c2", "b5", "c3", "d5", "c4", "e5"], "c5"),
                  "white": (["e2", "a1", "e3", "b1", "e4", "c1", "e5", "d1", "b4"], "e1")}[mover]
    game = quax.Game("quax", 5, swap=False)
    for move in moves:
        game.apply_text(move)
    assert game.to_move == mover
    return game, game.text_to_action(win)


@pytest.mark.parametrize("mover", ["black", "white"])
@pytest.mark.parametrize("player", ["uct:3000", "mcts:400"])
def test_analysis_values_are_the_movers_in_minus_one_to_one(player, mover):
    # Before, uct:N analysis gave NaN for every q and for value. Now, as mcts:N's: q of the
    # winning move +1 (every playout through it wins), the value positive for the side to
    # move whichever colour it is, every visited q finite in [-1, 1], NaN where not visited.
    game, win = win_or_lose(mover)
    found = quax.Search(player, seed=2).analyze(game)
    assert found["action"] == win
    assert found["q"][win] == pytest.approx(1.0)
    assert np.isfinite(found["value"]) and 0 < found["value"] <= 1
    visited = found["visits"] > 0
    assert np.isfinite(found["q"][visited]).all() and np.isnan(found["q"][~visited]).all()
    assert (np.abs(found["q"][visited]) <= 1).all()
    # The batched search hands out the same value.
    _, _, values = quax.Search(player, seed=2).search([game])
    assert values[0] == pytest.approx(found["value"])


def test_analysis_of_random_has_no_values():
    found = quax.Search("random").analyze(quax.Game("quax", 5))
    assert np.isnan(found["value"]) and np.isnan(found["q"]).all()


def test_policy_is_a_distribution_over_legal_moves():
    model = quax.load_model(MODEL5)
    game = quax.Game("quax", 5)
    game.apply_text("c3")
    found = quax.Search(model, simulations=64).analyze(game)
    legal = game.legal_mask()
    assert found["policy"].sum() == pytest.approx(1.0) and not found["policy"][~legal].any()
    assert found["visits"].sum() == found["simulations"] == 64
    assert np.allclose(found["policy"], found["visits"] / 64)
    assert legal[found["action"]] and found["visits"][found["action"]] == found["visits"].max()
    uct = quax.Search("uct:500").policy(game)
    assert uct.sum() == pytest.approx(1.0) and not uct[~legal].any()
    rand = quax.Search("random").policy(game)
    assert np.allclose(rand[legal], 1.0 / legal.sum())


def test_a_batch_searches_as_each_game_alone():
    model = quax.load_model(MODEL5)
    rng = np.random.default_rng(11)
    games = []
    for _ in range(6):
        game = quax.Game("quax", 5)
        for _ in range(int(rng.integers(0, 6))):
            game.apply(int(rng.choice(game.legal_actions())))
        games.append(game)
    actions, policies, values = quax.Search(model, simulations=48, seed=4).search(games)
    assert actions.shape == (6,) and policies.shape == (6, games[0].num_actions) and values.shape == (6,)
    for i, game in enumerate(games):
        alone = quax.Search(model, simulations=48, seed=4).analyze(game)
        assert alone["action"] == actions[i]
        assert np.allclose(alone["policy"], policies[i]) and alone["value"] == pytest.approx(values[i], abs=1e-5)


def test_a_model_file_with_its_settings_plays_a_game_against_uct():
    game = quax.Game("quax", 5)
    players = [quax.Search(MODEL5 + ":sims=32"), quax.Search("uct:200", seed=3)]
    assert players[0].simulations == 32
    while not game.is_over:
        side = 0 if game.to_move == "black" else 1
        game.apply(players[side].best_action(game))
    assert game.winner in ("black", "white")


def test_levels_play_the_same_model_weaker():
    assert quax.Search(MODEL5, level=1).simulations == 1
    assert quax.Search(MODEL5 + ":level=10").simulations == 200
    assert quax.Search(quax.load_model(MODEL5), level=9).simulations == quax.Search(MODEL5 + ":level=9").simulations
    game = quax.Game("quax", 5)
    # Level 1 draws its move from the policy at a high temperature: seeds differ; level 8
    # plays the policy's most likely move, level 10 the search's: one move each.
    assert len({quax.Search(MODEL5, level=1, seed=s).best_action(game) for s in range(20)}) > 3
    assert len({quax.Search(MODEL5, level=8, seed=s).best_action(game) for s in range(5)}) == 1
    with pytest.raises(ValueError, match=re.escape("level must be 1 (novice) to 10 (full strength), not 11")):
        quax.Search(MODEL5, level=11)
    with pytest.raises(ValueError, match="level sets the search's size"):
        quax.Search(MODEL5, level=3, simulations=50)
    # The size fills the same typed player as every door's (nets/players.h): a level beside the
    # player's own sims= is refused as `quax play --player m.pt:sims=50 --level 3` is, not
    # silently put over it; and one size only.
    with pytest.raises(ValueError, match=re.escape("level= sets the search's size; give it without sims=")):
        quax.Search(MODEL5 + ":sims=50", level=3)
    with pytest.raises(ValueError, match="give one of sims, time and level"):
        quax.Search(MODEL5, simulations=50, seconds=1.0)
    with pytest.raises(ValueError, match="does not search a tree"):
        quax.Search("uct:100", level=3)


def test_bad_requests_raise():
    with pytest.raises(ValueError, match="unknown player|no model file"):
        quax.Search("nope")
    with pytest.raises(ValueError, match="does not search a tree"):
        quax.Search("uct:100", simulations=5)
    with pytest.raises(ValueError, match="sims"):
        quax.Search(MODEL5 + ":sims=0")
    search = quax.Search(quax.load_model(MODEL5), simulations=8)
    with pytest.raises(ValueError, match="not quax|is for quax"):
        search.best_action(quax.Game("hex", 5))
    over = one_move_win()
    over.apply_text("c5")
    with pytest.raises(ValueError, match="over"):
        search.best_action(over)
    with pytest.raises(ValueError, match="a batch is of one game"):
        search.search([quax.Game("quax", 5), quax.Game("quax", 7)])


@pytest.mark.parametrize("kwargs,message", [
    ({"seconds": float("nan")}, "seconds must be 0.001 to 86400 (seconds per move), not nan"),
    ({"seconds": float("inf")}, "seconds must be 0.001 to 86400 (seconds per move), not inf"),
    ({"seconds": 1e300}, "seconds must be 0.001 to 86400"),
    ({"seconds": 1e-300}, "seconds must be 0.001 to 86400"),
    ({"seconds": -1.0}, "seconds must be 0.001 to 86400"),
    ({"simulations": 10**9}, "simulations must be 1 to 10000000, not 1000000000"),
    ({"simulations": 0}, "simulations must be 1 to 10000000, not 0"),
    ({"c_puct": float("nan")}, "c_puct must be more than 0 and at most 100, not nan"),
    ({"c_puct": float("inf")}, "c_puct must be more than 0 and at most 100, not inf")])
def test_settings_out_of_range_raise_naming_what_was_passed(kwargs, message):
    # Before, NaN, inf and 1e300 seconds were accepted (a search that never ends, or one
    # simulation); the error speaks of the argument, not of an internal "path:time=" string.
    for player in (quax.load_model(MODEL5), MODEL5):
        with pytest.raises(ValueError, match=re.escape(message)) as error:
            quax.Search(player, **kwargs)
        assert ":time=" not in str(error.value) and ":sims=" not in str(error.value)


# simulations and c_puct are quax.Search's own parameters, older than the search keys, with
# their own ranges and messages (above); every other search key is a keyword read by the
# schema of configs/README.md, with a config's range and error line.
OWN_PARAMETERS = {"simulations", "c_puct"}


def schema_bad_value(key):
    if key["kind"] == "integer":
        return int(key["high"]) + 1
    if key["kind"] == "number":
        return key["high"] * 2 + 1
    if key["kind"] == "boolean":
        return "maybe"
    return "alphabeta"


def test_search_keys_are_the_configs_keys():
    keys = {k["key"]: k for k in quax.search_keys()}
    assert set(keys) >= {"rule", "simulations", "fpu_reduction", "gumbel_m", "virtual_loss", "leaves_per_batch"}
    assert keys["simulations"]["default"] == "200"
    assert keys["fpu_reduction"]["expected"] == "a number in [-10, 10]"


def test_every_search_key_refuses_a_bad_value_as_a_config_does():
    model = quax.load_model(MODEL5)
    for key in quax.search_keys():
        if key["key"] in OWN_PARAMETERS:
            continue
        value = schema_bad_value(key)
        expected = (f"expected puct or gumbel, got '{value}'" if key["kind"] == "rule"
                    else "expected " + key["expected"])
        with pytest.raises(ValueError) as error:
            quax.Search(model, **{key["key"]: value})
        assert str(error.value) == f"bad value for '{key['key']}': {expected}"


def test_search_keys_set_the_search():
    model = quax.load_model(MODEL5)
    game = quax.Game("quax", 5)
    # A Gumbel root of 8 simulations considering 2 actions visits at most 2 root children.
    found = quax.Search(model, simulations=8, rule="gumbel", gumbel_m=2, fpu_reduction=0.1).analyze(game)
    assert (found["visits"] > 0).sum() <= 2
    assert quax.Search(model, rule="puct", leaves_per_batch=8, reuse_tree=False).simulations == 200
    with pytest.raises(TypeError, match="unexpected keyword argument 'fpu'"):
        quax.Search(model, fpu=0.1)
    with pytest.raises(ValueError, match="does not search a tree"):
        quax.Search("uct:100", fpu_reduction=0.1)
