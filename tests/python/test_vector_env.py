# quax.VectorEnv: the Gymnasium-style vector API over the C++ vectorized environment.
import numpy as np
import pytest

import quax


def test_shapes_and_the_first_observation():
    env = quax.VectorEnv("quax", 7, num_envs=4, seed=1)
    obs, info = env.reset()
    assert obs.shape == (4,) + env.observation_shape and obs.dtype == np.float32
    assert info["action_mask"].shape == (4, env.num_actions) and info["action_mask"].dtype == np.bool_
    start = quax.Game("quax", 7)
    for i in range(4):
        assert np.array_equal(obs[i], start.observation())
        assert np.array_equal(info["action_mask"][i], start.net_legal_mask())
    assert info["to_move"].tolist() == [0] * 4 and env.possible_agents == ["black", "white"]


@pytest.mark.parametrize("variant,size", [("quax", 5), ("hex", 5), ("stymie", 5), ("torax", 5), ("quikquax", 6)])
def test_steps_agree_with_games_and_rewards_follow_the_winner(variant, size):
    env = quax.VectorEnv(variant, size, num_envs=8, seed=3)
    obs, info = env.reset()
    games = [quax.Game(variant, size) for _ in range(8)]
    finished = 0
    for _ in range(400):
        actions = env.sample_actions()
        actors = info["to_move"].copy()
        for g, a in zip(games, actions):
            assert g.net_legal_mask()[a]
            g.apply(g.from_net_action(int(a)))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, g in enumerate(games):
            if terminated[i]:
                finished += 1
                assert g.is_over and info["length"][i] == g.move_number
                winner = {"black": 0, "white": 1, "draw": 2}[g.winner]
                assert info["winner"][i] == winner
                expected = 0.0 if winner == 2 else (1.0 if winner == actors[i] else -1.0)
                assert rewards[i] == expected
                games[i] = quax.Game(variant, size)  # auto-reset
            else:
                assert not g.is_over and rewards[i] == 0 and info["winner"][i] == -1
            assert np.array_equal(obs[i], games[i].observation())
            assert np.array_equal(info["action_mask"][i], games[i].net_legal_mask())
            assert info["to_move"][i] == {"black": 0, "white": 1}[games[i].to_move]
            assert env.game(i).record() == games[i].record()
    assert finished >= 8


def test_copy_false_returns_the_same_buffers_and_copy_true_fresh_arrays():
    shared = quax.VectorEnv("quax", 5, num_envs=2, copy=False)
    obs0, _ = shared.reset()
    obs1, *_ = shared.step(shared.sample_actions())
    assert obs0 is obs1 and obs1 is shared.observations
    fresh = quax.VectorEnv("quax", 5, num_envs=2)
    obs0, _ = fresh.reset()
    obs1, *_ = fresh.step(fresh.sample_actions())
    assert obs0 is not obs1 and not np.array_equal(obs0, obs1)


def test_bad_actions_raise_and_no_game_moves():
    env = quax.VectorEnv("quax", 5, num_envs=3, seed=2)
    env.reset()
    env.step(env.sample_actions())
    before = env.observations.copy(), [env.game(i).record() for i in range(3)]
    good = env.sample_actions()
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(~env.action_masks[2])[0])
    for bad, message in [(illegal, r"actions\[2\]"), (good[:2], "2 entries for 3"),
                         (good.astype(np.float32), "dtype"), (good.reshape(3, 1), "dimensions"),
                         (np.array([0, 0, 10_000]), r"actions\[")]:
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    assert np.array_equal(env.observations, before[0])
    assert [env.game(i).record() for i in range(3)] == before[1]
    with pytest.raises(ValueError, match="unknown variant"):
        quax.VectorEnv("nope", 5, num_envs=2)
    with pytest.raises(ValueError, match="num_envs"):
        quax.VectorEnv("quax", 5, num_envs=0)


@pytest.mark.parametrize("variant,size", [("quax", 5), ("hex", 5), ("quady", 7), ("quady2", 9), ("stymie", 5),
                                          ("torax", 5), ("quikquax", 6)])
def test_spaces_describe_what_reset_and_step_return(variant, size):
    # Before, VectorEnv had no spaces, so code written for Gymnasium's vector API could not
    # size its network or check its actions. They carry Gymnasium's attribute names.
    env = quax.VectorEnv(variant, size, num_envs=4, seed=5)
    one, batch = env.single_observation_space, env.observation_space
    assert one.shape == env.observation_shape and batch.shape == (4,) + env.observation_shape
    assert one.dtype == batch.dtype == np.float32
    assert one.low.shape == one.high.shape == one.shape and batch.low.shape == batch.high.shape == batch.shape
    assert (one.low == 0).all() and (batch.low == 0).all() and one.is_bounded()
    # 1 for every variant but the quadrant triangles, whose won-games planes add up (a cell in
    # several sub-games); the C++ test VectorEnv.MaxObservationBoundsEveryValueAndIsReached.
    assert ((one.high == 1).all() if variant not in ("quady", "quady2") else (one.high > 1).all())
    assert np.array_equal(batch.high[0], one.high)
    single, actions = env.single_action_space, env.action_space
    assert single.n == env.num_actions and single.start == 0 and single.shape == () and single.dtype == np.int64
    assert actions.shape == (4,) and actions.dtype == np.int64 and actions.nvec.tolist() == [env.num_actions] * 4
    obs, info = env.reset()
    assert obs.dtype == batch.dtype and batch.contains(obs) and all(one.contains(o) for o in obs)
    assert info["action_mask"].shape == (4, single.n)
    for step in range(120):
        # Half the steps draw from the action space with the legal masks, half from sample_actions().
        chosen = actions.sample(mask=info["action_mask"]) if step % 2 else env.sample_actions()
        assert actions.contains(chosen) and all(single.contains(a) for a in chosen)
        assert info["action_mask"][np.arange(4), chosen].all()
        obs, _, _, _, info = env.step(chosen)
        assert obs in batch and obs.min() >= 0 and obs.max() <= one.high.max()
    assert not actions.contains(np.full(4, single.n)) and not single.contains(-1) and not single.contains(1.0)
    assert not batch.contains(obs[:2]) and not batch.contains(obs - 1)
    assert single.sample() in single and actions.sample() in actions and batch.sample() in batch


def test_spaces_sample_reproducibly_and_within_a_mask():
    env = quax.VectorEnv("quax", 5, num_envs=3, seed=1)
    space = env.action_space
    space.seed(9)
    first = space.sample()
    space.seed(9)
    assert np.array_equal(space.sample(), first)
    mask = np.zeros(env.num_actions, dtype=bool)
    mask[[3, 7]] = True
    assert {int(env.single_action_space.sample(mask=mask)) for _ in range(50)} == {3, 7}
    with pytest.raises(ValueError, match="mask"):
        env.single_action_space.sample(mask=mask[:-1])
    with pytest.raises(ValueError, match="mask"):
        space.sample(mask=np.ones((2, env.num_actions), dtype=bool))


def test_close_and_the_context_manager():
    with quax.VectorEnv("quax", 5, num_envs=2) as env:
        assert not env.closed
        env.reset()
        env.step(env.sample_actions())
    assert env.closed
    for call in (env.reset, env.sample_actions, lambda: env.step([0, 1]), lambda: env.game(0),
                 lambda: env.observations, lambda: env.action_masks):
        with pytest.raises(ValueError, match="closed"):
            call()
    # What describes the environment stays readable, and closing twice is harmless.
    assert env.num_envs == 2 and env.action_space.nvec.tolist() == [env.num_actions] * 2
    assert env.single_observation_space.shape == env.observation_shape
    env.close()
    # An exception inside the block passes on, and the environment is closed all the same.
    with pytest.raises(KeyError):
        with quax.VectorEnv("quax", 5, num_envs=2) as env:
            raise KeyError("inside")
    assert env.closed


def test_reset_takes_gymnasium_keywords():
    env = quax.VectorEnv("quax", 5, num_envs=2)
    obs, info = env.reset(seed=4, options=None)
    again, _ = env.reset(seed=4, options={})
    assert np.array_equal(obs, again)
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"start": 1})


def test_step_takes_lists_tuples_and_arrays_alike():
    # Before, a plain list raised pybind's TypeError ("incompatible function arguments").
    moved = []
    for kind in (list, tuple, np.array, lambda a: [np.int32(x) for x in a]):
        env = quax.VectorEnv("quax", 5, num_envs=3, seed=8)
        env.reset(seed=8)
        actions = env.sample_actions()
        obs, *_ = env.step(kind(actions.tolist()))
        moved.append((obs, [env.game(i).record() for i in range(3)]))
    for obs, records in moved[1:]:
        assert np.array_equal(obs, moved[0][0]) and records == moved[0][1]


@pytest.mark.parametrize("bad,message", [
    ("0 1 2", r"^actions: a list, tuple or numpy array of 3 integers \(one per environment\), not str$"),
    (None, r"^actions: a list, tuple or numpy array of 3 integers .* not NoneType$"),
    (7, r"not int$"),
    ({0: 1}, r"not dict$"),
    ([0, 1], r"^actions: 2 entries for 3 environments$"),
    ((0, 1, 2, 3), r"^actions: 4 entries for 3 environments$"),
    ([0, 1.5, 2], r"^actions\[1\] = 1\.5 is not an integer \(environment 1\)$"),
    ([0, 1, "c3"], r"^actions\[2\] = 'c3' is not an integer \(environment 2\)$"),
    ([True, 1, 2], r"^actions\[0\] = True is not an integer \(environment 0\)$"),
    ([0, None, 2], r"^actions\[1\] = None is not an integer"),
    ([0, 1, 10**30], r"^actions\[2\] = " + str(10**30) + r" is not a legal network-frame action of environment 2 "),
    ([0, -1, 2], r"^actions\[1\] = -1 is not a legal network-frame action of environment 1 \(quax 5x5"),
    (np.array([0, 1, 2**63 + 5], dtype=np.uint64),
     r"^actions\[2\] = 9223372036854775813 is not a legal network-frame action of environment 2 "),
    (np.array([0.0, 1.0, 2.0]), r"^actions: dtype float64 is not accepted"),
    (np.array(["a", "b", "c"]), r"^actions: dtype <U1 is not accepted"),
])
def test_bad_action_inputs_raise_value_error_naming_the_entry(bad, message):
    env = quax.VectorEnv("quax", 5, num_envs=3, seed=2)
    env.reset()
    before = env.observations.copy()
    with pytest.raises(ValueError, match=message) as error:
        env.step(bad)
    assert "\n" not in str(error.value)
    assert np.array_equal(env.observations, before) and all(env.game(i).move_number == 0 for i in range(3))


def test_an_illegal_action_in_a_list_names_its_environment():
    env = quax.VectorEnv("quax", 5, num_envs=3, seed=2)
    env.reset()
    # a1 (action 0) in every game; a1 is action 0 in White's transposed frame too, so taken.
    env.step([0, 0, 0])
    with pytest.raises(ValueError, match=r"^actions\[1\] = 0 is not a legal network-frame action of environment 1 "
                                         r"\(quax 5x5 \(swap\), move 1\)$"):
        env.step([6, 0, 6])


def test_num_envs_is_bounded_by_the_memory_the_board_needs():
    # 10^6 games of 26x26 would take some 70 GB; the bound names the estimate and the limit.
    with pytest.raises(ValueError, match=r"num_envs=1000000 games of quax 26x26 .* about \d+ MB, more than the 1024 MB limit"):
        quax.VectorEnv("quax", 26, num_envs=10**6)
    # The bound is of memory, not a count: what 5x5 takes is too much for 26x26.
    assert quax.VectorEnv("quax", 5, num_envs=20_000).num_envs == 20_000
    with pytest.raises(ValueError, match=r"at most \d+ games of this size"):
        quax.VectorEnv("quax", 26, num_envs=20_000)
    with pytest.raises(ValueError, match="num_envs must be at least 1"):
        quax.VectorEnv("quax", 5, num_envs=-3)
    with pytest.raises(ValueError, match="MB limit"):  # beyond a C int: no overflow, the same error
        quax.VectorEnv("quax", 5, num_envs=10**12)


HAMMER = r"""
import threading, quax
env = quax.VectorEnv("quax", 5, num_envs=32, seed=7)
lock = threading.Lock()
steps, plies_of_finished = [0], [0]
def worker():
    done = 0
    while done < 1500:
        try:
            obs, rewards, terminated, truncated, info = env.step(env.sample_actions())
        except ValueError:  # another thread moved the games between sampling and stepping
            continue
        done += 1
        with lock:
            steps[0] += 1
            plies_of_finished[0] += int(info["length"][terminated].sum())
threads = [threading.Thread(target=worker) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
live = sum(env.game(i).move_number for i in range(env.num_envs))
print(steps[0], steps[0] * env.num_envs, plies_of_finished[0] + live)
"""


def test_steps_from_several_threads_take_turns():
    # Four threads stepping one environment (the GIL is released while it steps): before each
    # object had its lock this was a double free. Every step moves every game one ply, so the
    # plies of the finished games and of the live ones add up to steps x num_envs.
    import os, subprocess, sys
    run = subprocess.run([sys.executable, "-c", HAMMER], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ))
    assert run.returncode == 0, run.stderr[-2000:]
    steps, plies, counted = map(int, run.stdout.split())
    assert steps == 4 * 1500 and plies == counted
