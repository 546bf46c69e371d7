"""`--observation screenshot|axtree|text`: what goes into the agent's prompt, and `agent run --observation axtree`
on a site whose pages have stored accessibility trees (numbered like the elements, by XPath)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.agent.axtree import SiteTrees, format_axtree, write_tree
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.sites import build_site, side_files
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.fake_gemini import FakeGemini, answer

TASK = next(t for t in DEMO_TASKS if t.id == "lookup-1")


def site_with_trees(tmp_path: Path):
    """The demo site, each page with a tree made from core's own elements (a stand-in for Chromium's)."""
    folder = tmp_path / "site"
    shutil.copytree(resource_path("agent", "demo-site"), folder)
    site = build_site(folder)
    browser = HtmlSiteBrowser(site)
    for page in site.pages:
        browser.open(page.url)
        elements = browser.observe().elements
        nodes = [{"id": "1", "role": "RootWebArea", "name": page.title, "parent": None, "ignored": False,
                  "children": [str(i + 2) for i in range(len(elements))], "xpath": ""}]
        nodes += [{"id": str(i + 2), "role": e.role or "generic", "name": e.name or e.text, "parent": "1",
                   "children": [], "ignored": False, "xpath": e.xpath} for i, e in enumerate(elements)]
        files = side_files(folder / page.file)
        write_tree(files["axtree"], {"format": "recordlens-axtree/1", "url": page.url, "nodes": nodes})
        files["meta"].write_text(json.dumps({"final_url": page.url}), encoding="utf-8")  # what marks a capture
    return build_site(folder)


def caller(server: FakeGemini) -> GeminiCaller:
    return GeminiCaller(CallSettings(base_url=server.url, max_attempts=1, json_output=False), api_key="test",
                        budget=Budget(), sleep=lambda s: None)


def test_the_tree_is_numbered_like_the_elements(tmp_path: Path) -> None:
    site = site_with_trees(tmp_path)
    browser = HtmlSiteBrowser(site)
    browser.open(TASK.start_url)
    observation = browser.observe()
    tree = SiteTrees(site)(observation.url)
    text = format_axtree(tree, {e.xpath: e.label for e in observation.elements})
    second = observation.element(2)
    assert f'[2] {second.role} "{second.name or second.text}"' in text
    assert text.splitlines()[0].startswith("RootWebArea")


@pytest.mark.parametrize(("kinds", "tree", "page_text", "image"), [
    (("axtree",), True, False, False), (("text",), False, True, False), (("axtree", "text"), True, True, False),
    (("screenshot",), False, False, True), (None, False, True, True)])
def test_observations_choose_what_the_prompt_holds(tmp_path: Path, kinds, tree, page_text, image) -> None:
    site = site_with_trees(tmp_path)
    settings = AgentSettings(step_budget=1, observations=kinds, axtree_for=SiteTrees(site))
    with FakeGemini([answer("Thought: done.\nAction: ANSWER; x")]) as server:
        run_episode(TASK, HtmlSiteBrowser(site), caller(server), settings)
        request = server.requests[0]
    prompt = request.prompt_text
    assert ("Accessibility tree of the page" in prompt) == tree
    assert ("Text of the page:" in prompt) == page_text
    parts = request.body["contents"][0]["parts"]
    assert any("inlineData" in p or "inline_data" in p for p in parts) == image


def test_agent_run_observes_the_stored_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = site_with_trees(tmp_path)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(resource_path("agent", "demo-tasks.jsonl").read_text("utf-8"), encoding="utf-8")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with FakeGemini(default=answer("Thought: read the tree.\nAction: Click [2]")) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(site.root), "--tasks",
                     str(tasks), "--task", TASK.id, "--runs", "1", "--step-budget", "2", "--browser", "text",
                     "--observation", "axtree", "--base-url", server.url])
        prompts = [r.prompt_text for r in server.requests]
    assert code == 0 and len(prompts) == 2
    assert "Accessibility tree of the page ([n] = element n above):\nRootWebArea" in prompts[0]
    assert "Text of the page:" not in prompts[0]
    with open_project(tmp_path / "p") as project:
        run = project.agent.runs()[-1]
    assert run.parameters["observation"] == ["axtree"]
    assert run.parameters["observes"] == "accessibility tree"  # what was given, not the browser's default
    # Runs made before a Scroll that moves nothing became a failed step lack this: they can be told apart.
    assert run.parameters["fails_unmoved_scroll"] is True


def test_axtree_needs_stored_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site",
                 str(resource_path("agent", "demo-site")), "--tasks", str(resource_path("agent", "demo-tasks.jsonl")),
                 "--runs", "1", "--browser", "text", "--observation", "axtree"])
    assert code == 2 and "no stored accessibility tree" in capsys.readouterr().err
