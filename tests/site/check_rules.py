"""The page's engine (WebAssembly, random_games.js) against the native engine (the Python
module `quax` of the same C++): every position of every game must have the same legal actions,
player to move, position key, network planes (two checksums) and outcome; the record the page
wrote must replay natively to the same actions.
    python3 check_rules.py games.jsonl      (with build/python on PYTHONPATH)"""
import json
import sys

import numpy
import quax


def check(game):
    name = f"{game['variant']} {game['size']} swap={game['swap']}"
    native = quax.Game(game["variant"], game["size"], game["swap"])
    actions = game["actions"]
    assert len(game["plies"]) == len(actions) + 1, f"{name}: {len(game['plies'])} positions for {len(actions)} actions"
    for ply, (want, action) in enumerate(zip(game["plies"], actions + [None])):
        where = f"{name}, ply {ply}"
        assert sorted(native.legal_actions()) == sorted(want["legal"]), f"{where}: legal actions differ"
        assert native.to_move == want["to_move"], f"{where}: to move {native.to_move} natively, {want['to_move']} in the page"
        assert str(native.position_key) == want["key"], f"{where}: position keys differ"
        if not native.is_over:
            planes = native.observation().astype("float64").ravel()
            total = float(planes.sum())
            weighted = float((planes * (numpy.arange(planes.size) % 9973)).sum())
            assert abs(total - want["planes"][0]) < 1e-6 and abs(weighted - want["planes"][1]) < 1e-3, \
                f"{where}: planes differ ({total}, {weighted} natively; {want['planes']} in the page)"
        if action is not None:
            native.apply(action)
    assert native.winner == game["outcome"], f"{name}: winner {native.winner} natively, {game['outcome']} in the page"
    replayed = quax.Game.from_record(game["variant"], game["record"], game["size"], game["swap"])
    assert list(replayed.actions) == actions, f"{name}: the page's record replays to other actions natively"
    return len(actions) + 1


def main():
    games = positions = 0
    variants = set()
    with open(sys.argv[1]) as f:
        for line in f:
            game = json.loads(line)
            positions += check(game)
            games += 1
            variants.add(game["variant"])
    assert games > 0, "no games"
    print(f"ok: {games} random games of {len(variants)} variants, {positions} positions: the page's rules are the native ones")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
