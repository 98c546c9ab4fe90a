"""docs/VARIANTS.md's table of the shipped variants says what variants/*.yaml say (which
tests/rules_file_test.cpp holds equal to the rules the engine registers), row for row, so the
page a designer reads cannot drift from the engine."""
import os
import re
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def rules_file(path):
    """The fields of one shipped rules file: a flat `key: value` per line, sizes as a mapping."""
    fields = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    sizes = dict(re.findall(r"(\w+): (\d+)", fields["sizes"]))
    stones = fields["stones_per_turn"]
    if fields["one_stone_per_quadrant"] == "true":
        stones += ", one per quadrant"
    return [fields["name"], fields["board"], fields["wrap"], fields["diagonal"], fields["fourth_point"],
            fields["goal"], stones, fields["pie_rule"], f"{sizes['default']}, {sizes['min']}-{sizes['max']}"]


def table_rows(markdown):
    """The rows of the table under '## The shipped variants'."""
    section = markdown.split("## The shipped variants", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]  # past the header


def test_the_docs_table_is_the_shipped_rules_files():
    files = sorted((SOURCE_DIR / "variants").glob("*.yaml"))
    assert len(files) == 13
    expected = {rules_file(f)[0]: rules_file(f) for f in files}
    rows = table_rows((SOURCE_DIR / "docs" / "VARIANTS.md").read_text())
    assert {row[0] for row in rows} == set(expected)
    for row in rows:
        assert row == expected[row[0]], f"docs/VARIANTS.md's row of {row[0]} is not variants/{row[0]}.yaml"
