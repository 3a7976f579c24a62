"""README opens with exactly two commands, and .ci/run runs the second one."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.+?)\n```", text, flags=re.S)[:2]


def test_readme_opens_with_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head = text.split("\n", 1)[1].lstrip()
    assert head.startswith("```bash\n"), "README must open with the commands"
    install_run, test = _readme_commands()
    assert "\n" not in install_run and "\n" not in test
    assert (
        install_run.endswith("streamlit run app.py")
        and "pip install -r requirements.txt" in install_run
    )
    assert test.endswith("python -m pytest") and "chromium" in test


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    _, test = _readme_commands()
    assert test in ci


def test_torch_is_pinned_to_the_cpu_build():
    reqs = (ROOT / "requirements.txt").read_text(encoding="utf-8").split()
    assert "torch==2.13.0" in reqs
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert "==" in line, f"unpinned requirement: {line}"
