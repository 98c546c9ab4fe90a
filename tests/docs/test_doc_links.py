"""Every relative link and image of the project's Markdown files names a file or folder that
exists, so a page never shows a broken map or sends a reader nowhere (docs/balance/models.md
once linked its opening maps through the path of the machine that made it)."""
import os
import re
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SKIPPED_DIRS = {"build", ".git", "runs", "node_modules"}


def markdown_files():
    for dirpath, dirnames, filenames in os.walk(SOURCE_DIR):
        dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS and not d.startswith(("build", "."))]
        for name in filenames:
            if name.endswith(".md"):
                yield Path(dirpath) / name


def relative_targets(text):
    """The link targets of a Markdown text that name a path in the repository."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks are not links
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # a URL (http:, mailto:) or an anchor on the same page
        yield target.split("#")[0]


def test_the_link_finder_sees_links_images_and_skips_urls_and_code():
    text = "see [rules](docs/RULES.md#quax), ![map](a/b.svg) and [site](https://x.org)\n```\n[no](c.md)\n```\n`[no](d.md)`"
    assert list(relative_targets(text)) == ["docs/RULES.md", "a/b.svg"]


def test_every_relative_link_of_the_documents_exists():
    files = list(markdown_files())
    assert len(files) >= 10, f"only {len(files)} Markdown files found under {SOURCE_DIR}"
    broken = []
    for md in files:
        for target in relative_targets(md.read_text(encoding="utf-8")):
            if target and not (md.parent / target).exists():
                broken.append(f"{md.relative_to(SOURCE_DIR)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)
