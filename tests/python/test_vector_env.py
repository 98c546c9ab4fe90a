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
