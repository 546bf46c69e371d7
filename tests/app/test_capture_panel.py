"""The agent window's capture tools and the task editor's review queue: a capture run from the window with
progress, then the captured page's stored tree and full-page screenshot beside the live page; a capture
cancelled and continued; candidate tasks reviewed (accepted with an edit, marked similar / unable / expired),
saved at once, and the refined ones handed to the task table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from recordlens.annotator.agent.window import AgentWindow
from recordlens.core.agent.candidates import Candidate, load_candidates, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import load_site
from recordlens.core.resource_files import resource_path
from tests.app.agent_helpers import agent_window_on_shop
from tests.capture_site import SMALL_EXPECTED, SMALL_PAGES, serve
from tests.loopback import base_url

pytestmark = pytest.mark.app


def test_a_capture_from_the_window_shows_progress_then_the_stored_parts(qtbot, tmp_path: Path) -> None:
    with agent_window_on_shop(tmp_path / "shop") as window:
        assert not window.captured_view.isVisible()  # a hand-made site: nothing stored beside its pages
        with serve(SMALL_PAGES) as server:
            dialog = window.open_capture_dialog()
            dialog.roots.setText(base_url(server) + "/")
            dialog.folder.setText(str(tmp_path / "captured"))
            progress: list[tuple[int, int, str]] = []
            dialog.process.progress.connect(lambda done, total, text: progress.append((done, total, text)))
            assert dialog.start()
            qtbot.waitUntil(lambda: dialog.result is not None, timeout=240_000)
        assert dialog.result["ok"], dialog.result
        assert len(dialog.result["saved"]) == len(SMALL_EXPECTED)
        assert progress[-1][0] == progress[-1][1] and any("saved" in p[2] for p in progress)
        assert dialog.bar.value() == dialog.bar.maximum()
        # The open site stays until the user asks for the captured one; its start page shows the stored parts.
        assert window.browser.site.root == tmp_path / "shop" and dialog.open_button.isEnabled()
        dialog.open_button.click()
        dialog.close()
        assert window.browser.site.root == tmp_path / "captured"
        qtbot.waitUntil(lambda: not window.browser.loading, timeout=20_000)
        qtbot.waitUntil(lambda: window.captured_view.isVisible(), timeout=10_000)
        view = window.captured_view
        assert view.tree.toPlainText().startswith("RootWebArea")
        assert not view.shot.pixmap().isNull() and view.shot.pixmap().height() > view.shot.pixmap().width()
        assert json.loads(view.meta.toPlainText())["viewport"] == [1920, 1080]
        assert "cut" not in view.note.text()
        site = window.browser.site  # a page taller than a screenshot can be: the note says it was cut
        meta = tmp_path / "captured" / site.page(view.shown_url).side_file("meta")
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "page_height": 40000, "screenshot_cut": True}))
        assert view.show_page(site, view.shown_url)
        assert "cut: the page is 40000 px tall" in view.note.text()


def test_a_cancelled_capture_keeps_its_pages_and_continues(qtbot, tmp_path: Path) -> None:
    window = AgentWindow(site=resource_path("agent", "demo-site"))
    try:
        with serve(SMALL_PAGES) as server:
            dialog = window.open_capture_dialog()
            dialog.roots.setText(base_url(server) + "/")
            dialog.folder.setText(str(tmp_path / "site"))
            steps: list[int] = []
            dialog.process.progress.connect(lambda done, total, text: steps.append(done))
            assert dialog.start()
            qtbot.waitUntil(lambda: any(s >= 1 for s in steps), timeout=120_000)
            dialog.cancel()
            qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
            assert "cancel" in dialog.result["message"]
            assert (tmp_path / "site" / "capture.json").is_file()
            # The bar stays where the capture stopped, pages still queued: not full as if it had finished
            assert dialog.bar.value() < dialog.bar.maximum() and dialog.bar.value() >= 1
            assert dialog.start()
            qtbot.waitUntil(lambda: dialog.result is not None and dialog.result.get("resumed") is not None,
                            timeout=240_000)
        assert dialog.result["ok"] and dialog.result["resumed"] is True, dialog.result
        assert len(load_site(tmp_path / "site").pages) == len(SMALL_EXPECTED)
        dialog.close()
    finally:
        window.close()


def candidate(ident: str, instruction: str, answer: str, status: str = "candidate") -> Candidate:
    task = Task(id=ident, instruction=instruction, answer=answer, category="lookup",
                start_url="https://papers.example.org/", site="demo-site")
    return Candidate(task=task, seeds=("lookup-1",), model="fake", status=status)


def test_the_review_queue_saves_every_verdict_and_hands_over_refined_tasks(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "candidates.jsonl"
    save_candidates(path, [
        candidate("gen-1", "Who wrote Sparse Lattice Attention for Long Documents first?", "Ilse Marrow"),
        candidate("gen-2", "Which licence does paper 2311.00457 use?", "Nobody Knows"),
        candidate("gen-3", "Who is the first author of Sparse Lattice Attention?", "Ilse Marrow"),
        candidate("gen-4", "What is the submission deadline?", "never"),
    ])
    window = AgentWindow(site=resource_path("agent", "demo-site"), tasks=resource_path("agent", "demo-tasks.jsonl"))
    try:
        editor = window.task_editor
        before = editor.table.rowCount()
        queue = editor.open_review(path)
        assert queue.isVisible() and queue.current().id == "gen-1"
        assert queue.evidence.text().startswith("found on https://papers.example.org/")
        assert queue.judge("accepted").status == "accepted"
        assert queue.current().id == "gen-2"  # on to the next one not reviewed
        assert "no saved page" in queue.evidence.text()  # the made-up answer is flagged
        queue.answer.setText("CC BY 4.0")
        queue.reason.setText("answer corrected from the abstract page")
        queue.judge("accepted")
        assert queue.current().id == "gen-2" and "no saved page's text" in queue.summary.text()  # on no page: stays
        queue.next_pending()
        assert queue.judge("similar") is None  # no reason: not saved, and said
        assert "not saved: a similar verdict needs a reason" in queue.summary.text()
        queue.reason.setText("same as gen-1")
        queue.judge("similar")
        queue.reason.setText("the site has no deadline")
        queue.judge("unable")
        saved = {c.id: c for c in load_candidates(path)}
        assert [saved[i].status for i in ("gen-1", "gen-2", "gen-3", "gen-4")] == [
            "accepted", "accepted", "similar", "unable"]
        assert saved["gen-2"].task.answer == "CC BY 4.0" and saved["gen-2"].original["answer"] == "Nobody Knows"
        assert saved["gen-2"].evidence == "" and saved["gen-1"].evidence
        assert saved["gen-4"].reason == "the site has no deadline"
        assert "2 accepted (refined)" in queue.summary.text() and "1 similar" in queue.summary.text()
        queue.hand_refined()
        assert editor.table.rowCount() == before + 2
        assert editor.modified()  # handed over, not saved: closing the window asks (it is answered here)
        editor.ask = lambda *_: QMessageBox.StandardButton.Discard
        editor.close_review()
    finally:
        window.close()


def test_the_capture_dialog_shows_the_summarys_notes(qapp) -> None:
    from recordlens.annotator.agent.capture_panel import CaptureDialog

    dialog = CaptureDialog()
    try:
        dialog._on_finished({"ok": True, "message": "site: 0 page(s) saved",
                             "notes": ["rule changed since the last run: --depth: 3 → 1"]})
        assert dialog.log.toPlainText().splitlines()[-2:] == [
            "site: 0 page(s) saved", "warning: rule changed since the last run: “Depth”: 3 → 1"]  # its field
    finally:
        dialog.deleteLater()
