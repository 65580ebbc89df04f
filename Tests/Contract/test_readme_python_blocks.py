"""The README's Python blocks, run as pasted against `offline-search serve`.

The server runs as the README starts it (the default data folder, in an empty HOME, so the demo
indices appear when a request names one; an admin key from $ADMIN_KEY). The only change made
to a block is its port: 8108 becomes the free port the server took. Run by Tests/Contract/run.sh.
"""
import os
import subprocess
import sys
import tempfile

import pytest
from local_server import REPO, serve

ADMIN_KEY = "readme-admin-key"


def python_blocks():
    """The ```python blocks of the README, with the line each starts on."""
    blocks, current, start = [], None, 0
    for number, line in enumerate((REPO / "README.md").read_text().splitlines(), start=1):
        stripped = line.strip()
        if current is None and stripped.startswith("```python"):
            current, start = [], number
        elif current is not None and stripped == "```":
            blocks.append(pytest.param("\n".join(current) + "\n", id=f"README.md:{start}"))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


@pytest.fixture(scope="module")
def served_port():
    with tempfile.TemporaryDirectory() as home:
        environment = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "OFFLINE_SEARCH_DATASETS")}
        environment["HOME"] = home
        with serve("--admin-key", ADMIN_KEY, env=environment) as served:
            yield served.port


def test_the_readme_has_a_python_block():
    assert python_blocks(), "README.md has no ```python block"


@pytest.mark.parametrize("block", python_blocks())
def test_the_block_runs_as_pasted(block, served_port):
    assert "8108" in block, "the block names the README's port, 8108"
    script = block.replace("8108", str(served_port))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "ADMIN_KEY": ADMIN_KEY})
    assert result.returncode == 0, f"the README's block failed:\n{result.stderr}\n{block}"
    assert result.stdout.strip(), "the block prints what it found"
