"""The code blocks of the project's documents, with what each says about being run.

A fenced block in sh, bash or python is an example a reader may paste, so each one carries a
marker on the line right above its opening fence:

    <!-- doc-test -->                      run it; it must exit 0
    <!-- doc-test: stop after 30 s -->     run it, interrupt it (SIGINT) after 30 s; it must
                                           not fail before then (long jobs: training)
    <!-- doc-test: not run (reason) -->    not run, for the reason given (interactive, a server,
                                           several machines, an hour of training)

Blocks in other languages (text, json) and indented blocks are not examples and carry none.
`python3 tests/docs/doc_blocks.py [ROOT]` lists every block with its marker.
"""
import re
import sys
from dataclasses import dataclass
from pathlib import Path

RUNNABLE = {"sh", "bash", "python"}
MARKER = re.compile(r"^<!-- doc-test(?::\s*(?P<how>.*?))?\s*-->$")
STOP_AFTER = re.compile(r"^stop after (?P<seconds>\d+) s$")
NOT_RUN = re.compile(r"^not run \((?P<reason>.+)\)$")


@dataclass
class Block:
    path: Path          # the document
    line: int           # line of the opening fence (1-based)
    language: str
    code: str
    marker: str | None  # the marker's text after "doc-test" ("" for a plain run), None if none
    stop_after: int | None = None
    not_run: str | None = None

    @property
    def name(self):
        return f"{self.path.name}:{self.line}"

    def problem(self):
        """Why the block's marker is missing or malformed, or '' when it is fine."""
        if self.language not in RUNNABLE:
            return ""
        if self.marker is None:
            return f"{self.name}: a {self.language} block without a <!-- doc-test ... --> marker above it"
        if self.marker and self.stop_after is None and self.not_run is None:
            return f"{self.name}: marker 'doc-test: {self.marker}' is neither 'stop after N s' nor 'not run (reason)'"
        return ""


def documents(root):
    """The documents whose examples are checked: the front page and everything under docs/."""
    root = Path(root)
    found = [root / "README.md", root / "configs" / "README.md", root / "checkpoints" / "README.md"]
    found += sorted((root / "docs").glob("*.md"))
    return [p for p in found if p.is_file()]


def blocks_of(path):
    """Every fenced block of one Markdown file, in order."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        fence = re.match(r"^(```+)\s*([A-Za-z0-9_+-]*)", lines[i])
        if not fence:
            i += 1
            continue
        ticks, language, start = fence.group(1), fence.group(2).lower(), i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith(ticks):
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        above = lines[start - 1].strip() if start > 0 else ""
        m = MARKER.match(above)
        block = Block(path=Path(path), line=start + 1, language=language, code="\n".join(body) + "\n",
                      marker=None if not m else (m.group("how") or ""))
        if m and m.group("how"):
            stop = STOP_AFTER.match(m.group("how"))
            reason = NOT_RUN.match(m.group("how"))
            block.stop_after = int(stop.group("seconds")) if stop else None
            block.not_run = reason.group("reason") if reason else None
        out.append(block)
    return out


def all_blocks(root):
    return [b for doc in documents(root) for b in blocks_of(doc)]


if __name__ == "__main__":
    for b in all_blocks(sys.argv[1] if len(sys.argv) > 1 else "."):
        if b.language in RUNNABLE:
            how = "not run: " + b.not_run if b.not_run else f"stop after {b.stop_after} s" if b.stop_after else "run"
            print(f"{b.path}:{b.line} {b.language:6} {how if b.marker is not None else 'NO MARKER'}")
