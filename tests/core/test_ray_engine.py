"""`--engine ray` on a local Ray instance of 2 workers (issue 16): the same files and figures as the local engine
on the 80 development pages, a worker killed mid-run loses no finished page and the rerun completes, and one
Gemini budget holds across workers against the loopback fake server.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout), a heavy part that `make test` does not
install: these tests skip where Ray is not installed, and `make test-ray` installs the extra and runs them.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.extract import create
from recordlens.core.llm.gemini import Budget
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.runner import run_extractor
from tests import ray_units
from tests.conftest import SHARED_DATA, require_shared
from tests.core.ray_helpers import (
    FOLDERS,
    KEY,
    assert_said_lost_and_resumed,
    engine_on_the_instance,
    extract_on_a_cluster_lost_part_way,
    local_ray_instance,
    require_ray,
    small_copy,
)
from tests.fake_gemini import FakeGemini, answer, answer_with, status
from tests.ray_cluster import (
    Cluster,
    cluster_environment,
    files_holding,
    kill_head,
    ray_cluster,
    recordlens,
)

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Path]:
    """One local instance of 2 workers for the module; yields Ray's temp folder, checked for the key."""
    with local_ray_instance("rlray-", ray_units, {"GEMINI_API_KEY": KEY}) as temp:  # the workers start with it
        yield temp


engine = engine_on_the_instance  # a fixture: a RayEngine joined to `ray_instance` for a test


def _files(run: Path) -> dict[str, bytes]:
    """Every records file of a run, byte for byte, and the names (not the contents: seconds differ) in _run/."""
    found = {p.name: p.read_bytes() for p in sorted(run.glob("*.json"))}
    found.update({f"_run/{p.name}": b"" for p in sorted((run / "_run").glob("*.json")) if p.name != "run.json"})
    return found


def _stray(run: Path) -> list[Path]:
    return [p for p in run.rglob(".*") if p.is_file()]


@pytest.mark.parametrize("folder", FOLDERS)
def test_extract_and_score_on_ray_give_the_local_files_and_figures(folder: str, engine: object, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = require_shared(SHARED_DATA / folder)
    pages, gt = str(data / "html"), str(data / "gt")
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert main(["extract", "--method", "repeats", "--pages", pages, "--out", str(local), "-q"]) == 0
    assert main(["extract", "--method", "repeats", "--pages", pages, "--out", str(on_ray), "--engine", "ray",
                 "--workers", "2"]) == 0
    assert "repeats [##############################] 40/40" in capsys.readouterr().err  # one bar for the run
    assert len(list(local.glob("*.json"))) == 40
    assert _files(on_ray) == _files(local)
    assert _stray(on_ray) == []
    description = {k: v for k, v in json.loads((on_ray / "_run" / "run.json").read_text()).items() if k != "written"}
    assert description == {k: v for k, v in json.loads((local / "_run" / "run.json").read_text()).items()
                           if k != "written"}

    assert main(["score", "--pred", str(local), "--gt", gt, "--pages", pages, "--json", "-q"]) == 0
    by_local = capsys.readouterr()
    assert main(["score", "--pred", str(on_ray), "--gt", gt, "--pages", pages, "--json", "-q",
                 "--engine", "ray"]) == 0
    by_ray = capsys.readouterr()
    assert by_ray.out == by_local.out  # every page's figures and the means, to the last digit
    assert json.loads(by_ray.out)["pages"] and len(json.loads(by_ray.out)["pages"]) == 40


def test_a_run_stopped_locally_resumes_on_ray(engine: object, tmp_path: Path) -> None:
    data = require_shared(SHARED_DATA / FOLDERS[0])
    local, resumed = tmp_path / "local", tmp_path / "resumed"
    run_extractor(create("repeats"), data / "html", local)
    first = [p.stem for p in sorted(local.glob("*.json"))][:10]
    run_extractor(create("repeats"), data / "html", resumed, names=first)  # a local run that stopped early
    summary = run_extractor(create("repeats"), data / "html", resumed, engine=engine)
    assert sorted(summary.skipped) == sorted(first) and len(summary.extracted) == 30
    assert _files(resumed) == _files(local)


def test_a_worker_killed_mid_run_loses_no_finished_page_and_the_rerun_completes(
        engine: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = require_shared(SHARED_DATA / FOLDERS[0])
    pages = data / "html"
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    run_extractor(create("repeats"), pages, local)
    names = [p.stem for p in sorted(local.glob("*.json"))]
    victim = names[len(names) // 2]
    flag = tmp_path / "kill-on-victim"
    flag.touch()

    summary = run_extractor(ray_units.KillingExtractor(victim, flag), pages, on_ray, engine=engine)
    assert "(raylet)" not in capsys.readouterr().out  # Ray's own report of the death: stdout stays the command's

    # The victim's worker died on both tries (the first and Ray's one retry): that page only failed, by name.
    assert list(summary.failed) == [victim]
    assert "worker died" in summary.failed[victim]
    assert sorted(summary.extracted) == sorted(n for n in names if n != victim)
    assert not (on_ray / f"{victim}.json").exists()
    # As any failed page: no N.json, its reason in _run/N.json (README, "A worker that dies").
    cost = json.loads((on_ray / "_run" / f"{victim}.json").read_text())
    assert cost["status"] == "failed" and "its Ray worker died" in cost["reason"], cost
    finished = _files(on_ray)
    assert finished == {k: v for k, v in _files(local).items() if k != f"{victim}.json"}  # each finished page intact
    assert _stray(on_ray) == []

    # The rerun, here on the local engine (a run stopped on Ray resumes locally), does only the lost page.
    flag.unlink()
    assert main(["extract", "--method", "repeats", "--pages", str(pages), "--out", str(on_ray)]) == 0
    rerun = capsys.readouterr()
    assert f"1 extracted, {len(names) - 1} already there, 0 failed" in rerun.out  # the closing line, on stdout
    assert "(raylet)" not in rerun.out
    assert _files(on_ray) == _files(local)


def test_one_gemini_budget_holds_across_workers_and_the_key_stays_out_of_files(
        engine: object, ray_instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = require_shared(SHARED_DATA / FOLDERS[0])
    pages = tmp_path / "pages"
    pages.mkdir()
    for page in sorted((data / "html").glob("*.html"))[:12]:
        shutil.copy(page, pages / page.name)
    monkeypatch.setenv("GEMINI_API_KEY", KEY)  # the driver's; the workers have it from the job's environment
    budget = Budget(max_requests=5)
    with FakeGemini(default=answer('[["/body[1]"]]', usage=(100, 20))) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, budget=budget, timeout_s=60.0,
                           backoff_s=0.01)
        summary = run_extractor(extractor, pages, tmp_path / "run", engine=engine)
        served = list(server.requests)

    assert len(served) == 5, summary  # five for the whole run, not five per worker
    assert {request.api_key for request in served} == {KEY}  # the workers had the key, from their environment
    # No page starts after the stop, and the pages in flight are kept: every request paid for is a page.
    assert len(summary.extracted) == 5 and summary.stopped and "request budget used up" in summary.stopped, summary
    assert (budget.requests, budget.tokens) == (5, 5 * 120)  # the workers' counts, back in the run's budget
    assert summary.tokens["total"] == 5 * 120
    assert len(list((tmp_path / "run").glob("*.json"))) == 5
    leaked = [str(p) for root in (ray_instance, tmp_path) for p in root.rglob("*")
              if p.is_file() and not p.is_symlink() and _contains(p, KEY.encode())]
    assert leaked == []

    # The rest of the run resumes on the local engine, with a budget of its own, at the same endpoint (another
    # --base-url would be another run, which a resume refuses to mix in).
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=answer('[["/body[1]"]]'), port=server.port) as server:
        rest = run_extractor(create("gemini", input_format="flat", base_url=server.url), pages, tmp_path / "run")
    assert len(rest.extracted) == 7 and len(rest.skipped) == 5


def _contains(path: Path, needle: bytes) -> bool:
    try:
        return needle in path.read_bytes()
    except OSError:
        return False  # a socket or a file Ray removed meanwhile


def test_without_ray_the_engine_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    assert main(["score", "--pred", ".", "--gt", ".", "--pages", ".", "--engine", "ray"]) == 2
    err = capsys.readouterr().err
    # RecordLens is on no package index: the words are what installs Ray from its checkout (as make test-ray does)
    assert "pip install -e '.[ray]' in the RecordLens checkout" in err and "recordlens[ray]" not in err
    assert err.count("\n") == 1, err


def test_requests_per_minute_are_one_limit_for_all_workers(ray_instance: Path) -> None:
    import ray

    from recordlens.core.llm.shared_budget import start_shared_budget

    shared = start_shared_budget(Budget(), requests_per_minute=3)
    task = ray.remote(num_cpus=1)(ray_units.reserve_twice)
    verdicts = ray.get([task.remote(shared) for _ in range(2)])  # two workers, one limiter
    flat = [v for pair in verdicts for v in pair]
    assert sorted(flat) == ["ok", "ok", "ok", "wait"]
    assert shared.counts() == (3, 0, 0, 0)


def test_agent_run_on_ray_gives_the_local_episodes_and_shares_the_request_budget(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.resource_files import resource_path

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    site = str(resource_path("agent", "demo-site"))
    tasks = tmp_path / "tasks.jsonl"
    lines = resource_path("agent", "demo-tasks.jsonl").read_text("utf-8").splitlines()
    tasks.write_text("\n".join(line for line in lines if '"rules-' in line) + "\n", encoding="utf-8")

    def reply(body: dict[str, object]) -> str:  # the same answer for the same prompt, whatever the order
        return "ANSWER; 2000" if "rules-2" in json.dumps(body) or "2000" in json.dumps(body) else "Click [5]"

    figures = {}
    for engine_name in ("local", "ray"):
        project = tmp_path / engine_name
        with FakeGemini(default=answer_with(reply)) as server:
            code = main(["agent", "run", "--project", str(project), "--site", site, "--tasks", str(tasks),
                         "--browser", "text", "--base-url", server.url, "--step-budget", "3",
                         "--engine", engine_name])
        assert code == 0
        capsys.readouterr()
        assert main(["agent", "eval", "--project", str(project), "--json"]) == 0
        figures[engine_name] = json.loads(capsys.readouterr().out)
    for a, b in zip(figures["ray"]["episodes"], figures["local"]["episodes"], strict=True):
        assert a == b
    assert figures["ray"] == figures["local"]

    with FakeGemini(default=answer_with(reply)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "budget"), "--site", site, "--tasks", str(tasks),
                     "--browser", "text", "--base-url", server.url, "--step-budget", "3", "--max-requests", "4",
                     "--engine", "ray"]) == 3  # cut by the budget: an incomplete run, to finish with --resume
        assert len(server.requests) == 4  # one budget for the six episodes on both workers


def test_pages_shipped_by_content_give_the_same_files(engine: object, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A cluster without shared storage: pages go as bytes with their tasks, results come back as bytes."""
    data = require_shared(SHARED_DATA / FOLDERS[1])
    local, shipped = tmp_path / "local", tmp_path / "shipped"
    run_extractor(create("repeats"), data / "html", local)
    assert main(["extract", "--method", "repeats", "--pages", str(data / "html"), "--out", str(shipped), "-q",
                 "--engine", "ray", "--ship-content"]) == 0
    assert _files(shipped) == _files(local)
    assert _stray(shipped) == []
    cost = json.loads(next((shipped / "_run").glob("1*.json")).read_text())
    assert cost["method"] == "repeats" and "records" not in cost


@pytest.mark.parametrize("relative", [True, False], ids=["relative", "absolute"])
def test_a_page_shipped_by_content_that_cannot_be_read_is_named_as_given(
        engine: object, relative: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A page sent as bytes is read from a copy in a folder of the worker's own: a page that cannot be read is named,
    in its record and on stderr, by the path the command was given, as the local engine names it, not by that copy."""
    pages = tmp_path / "data" / "html"
    pages.mkdir(parents=True)
    shutil.copy(DEMO_PAGES / "1.html", pages)
    (pages / "2.html").write_bytes(b"")
    (pages / "3.mhtml").write_bytes(b"not an archive")
    monkeypatch.chdir(tmp_path)
    given = "data/html" if relative else str(pages)
    common = ["extract", "--method", "repeats", "--pages", given, "-q"]
    assert main([*common, "--out", "local"]) == 1
    capsys.readouterr()
    assert main([*common, "--out", "shipped", "--engine", "ray", "--ship-content"]) == 1
    said = capsys.readouterr().err
    for name in ("2", "3"):
        reason = json.loads((tmp_path / "shipped" / "_run" / f"{name}.json").read_text())["reason"]
        assert reason == json.loads((tmp_path / "local" / "_run" / f"{name}.json").read_text())["reason"]
    assert f"Cannot read {given}/2.html: the file is empty" in said and "recordlens-page-" not in said, said

def test_relative_paths_name_the_callers_files_not_the_workers_folder(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The workers run in the folder their instance was started from; the command's relative paths are its own."""
    small_copy(tmp_path / "data")
    monkeypatch.chdir(tmp_path)  # not where the module's instance (and so its workers) started
    common = ["--method", "repeats", "--pages", "data/html", "-q"]
    assert main(["extract", *common, "--out", "runs/local"]) == 0
    assert main(["extract", *common, "--out", "runs/ray", "--engine", "ray"]) == 0
    assert "runs/ray: 4 extracted, 0 already there, 0 failed" in capsys.readouterr().out
    assert _files(tmp_path / "runs" / "ray") == _files(tmp_path / "runs" / "local")
    assert len(list((tmp_path / "runs" / "ray").glob("*.json"))) == 4

    score = ["score", "--pred", "runs/ray", "--gt", "data/gt", "--pages", "data/html", "--json", "-q"]
    assert main(score) == 0
    by_local = capsys.readouterr().out
    assert main([*score, "--engine", "ray"]) == 0
    assert capsys.readouterr().out == by_local


def _said(command: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """What a command says: its exit status, its stdout and its stderr."""
    code = main(command)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_on_ray_leaves_out_an_unreadable_page_as_locally(engine: object, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever `score` does with a page it cannot read (left out of the figures, named, `pages_not_read`, exit 1:
    LEFT_OUT_UNREAD), Ray does the same: the same exit status, lines on stdout and stderr, and JSON."""
    small_copy(tmp_path / "data", count=2)
    page = next((tmp_path / "data" / "html").glob("*.html"))
    page.write_text("  \n", encoding="utf-8")  # an empty page: it cannot be read, on either engine
    score = ["score", "--pred", str(tmp_path / "data" / "gt"), "--gt", str(tmp_path / "data" / "gt"),
             "--pages", str(tmp_path / "data" / "html"), "-q"]
    for form in ([], ["--json"]):
        by_local = _said([*score, *form], capsys)
        by_ray = _said([*score, *form, "--engine", "ray"], capsys)
        assert by_ray == by_local
        assert f"Cannot read {page}" in by_local[1] + by_local[2]  # the page is named, not hidden in a figure
    figures = json.loads(by_ray[1])
    assert list(figures["pages_not_read"]) == [page.stem] and len(figures["pages"]) == 1


def test_an_unreadable_page_is_named_on_ray_by_the_path_as_given(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Relative paths: what Ray's workers say and write of a page names it as the command was given it, as the
    local engine does (not by the absolute path it is read at), in `score`'s lines and in `extract`'s record."""
    small_copy(tmp_path / "data", count=2)
    monkeypatch.chdir(tmp_path)  # not where the module's instance (and so its workers) started
    page = sorted(Path("data/html").glob("*.html"))[0]
    page.write_text("  \n", encoding="utf-8")
    score = ["score", "--pred", "data/gt", "--gt", "data/gt", "--pages", "data/html", "-q"]
    by_local = _said(score, capsys)
    by_ray = _said([*score, "--engine", "ray"], capsys)
    assert f"Cannot read {page}:" in by_local[1]
    assert by_ray == by_local

    extract = ["extract", "--method", "repeats", "--pages", "data/html", "-q"]
    by_local = _said([*extract, "--out", "runs/local"], capsys)
    by_ray = _said([*extract, "--out", "runs/ray", "--engine", "ray"], capsys)
    assert by_ray[0] == by_local[0] == 1
    on_ray = re.sub(r" \(on worker [^)]*\)", "", by_ray[2])  # Ray's failures name their worker too
    assert on_ray.replace("runs/ray", "runs/local") == by_local[2]
    reasons = {run: json.loads(Path(f"runs/{run}/_run/{page.stem}.json").read_text())["reason"]
               for run in ("local", "ray")}
    assert reasons["ray"] == reasons["local"] and reasons["local"].startswith(f"Cannot read {page}:")


def _closed_port() -> int:
    with socket.socket() as probe:  # a port nothing listens on: bound, never listening, then closed
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_ray_address_fails_at_once_with_the_address(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    ray = require_ray()
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as a command starts: no Ray in this process yet
    port = _closed_port()
    assert main(["score", "--pred", ".", "--gt", ".", "--pages", ".", "--engine", "ray",
                 "--ray-address", f"127.0.0.1:{port}"]) == 2
    said, error = capsys.readouterr().err.splitlines()[-2:]
    assert said == f"connecting to Ray at 127.0.0.1:{port}…"  # on stderr, while Ray is asked
    assert error.startswith(f"recordlens: error: cannot reach Ray at 127.0.0.1:{port} (Connection refused)")


def test_an_address_is_checked_before_ray_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray too: the check that spares Ray's minutes of retries, and the Ray Client package it needs."""
    from recordlens.core.runs import ray_engine
    from recordlens.core.runs.engines import EngineError

    port = _closed_port()
    with pytest.raises(EngineError, match=rf"^cannot reach Ray at 127\.0\.0\.1:{port} \(Connection refused\)"):
        ray_engine._check_reachable(f"127.0.0.1:{port}")
    monkeypatch.setitem(sys.modules, "grpc", None)  # the minimal Ray, without `ray[client]`
    with pytest.raises(EngineError, match=r"ray://127\.0\.0\.1:10001 is a Ray Client address, which needs pip "
                                          r"install 'ray\[client\]'"):
        ray_engine._check_reachable("ray://127.0.0.1:10001")
    ray_engine._check_reachable("auto")  # Ray's own forms are Ray's to read


def test_workers_are_refused_with_a_cluster_given_or_from_ray_address(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Without Ray too: --workers would be ignored by a cluster, which has its own CPUs; RAY_ADDRESS names one."""
    score = ["score", "--pred", ".", "--gt", ".", "--pages", ".", "--engine", "ray", "--workers", "2"]
    assert main([*score, "--ray-address", "auto"]) == 2
    assert "--workers is for a local Ray instance; the cluster at auto has its own CPUs" in capsys.readouterr().err
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.9:6379")
    assert main(score) == 2
    assert "the cluster at 10.0.0.9:6379 has its own CPUs" in capsys.readouterr().err


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A real cluster of one node (`ray start --head`), joined with --ray-address by commands in processes of
    their own; its workers have no key in their environment."""
    require_ray()
    with ray_cluster() as joined:
        yield joined




def test_joining_a_cluster_the_key_reaches_the_workers_in_memory_and_no_file_of_the_cluster(
        cluster: Cluster, tmp_path: Path) -> None:
    """extract, bench and agent run joined to a cluster: the workers call with the key, and no file under the
    cluster's folder (its session, the runtime env agent's log) holds it."""
    from recordlens.core.resource_files import resource_path

    data = small_copy(tmp_path / "data", 4)
    env = {**cluster_environment(), "GEMINI_API_KEY": KEY}
    joined = ["--engine", "ray", "--ray-address", cluster.address]
    tasks = tmp_path / "tasks.jsonl"
    lines = resource_path("agent", "demo-tasks.jsonl").read_text("utf-8").splitlines()
    tasks.write_text(next(line for line in lines if '"rules-1' in line) + "\n", encoding="utf-8")
    with FakeGemini(default=answer('[["/body[1]"]]')) as server:
        commands = {
            "extract": ["extract", "-m", "gemini", "-f", "flat", "--pages", str(data / "html"),
                        "--out", str(tmp_path / "run"), "--base-url", server.url, "-q"],
            "bench": ["bench", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--methods", "gemini:flat",
                      "--base-url", server.url, "--no-chart", "--json", "-q"],
            "agent run": ["agent", "run", "--project", str(tmp_path / "project"), "--site",
                          str(resource_path("agent", "demo-site")), "--tasks", str(tasks), "--browser", "text",
                          "--base-url", server.url, "--step-budget", "1"],
        }
        for command, args in commands.items():
            done = recordlens([*args, *joined], env=env)
            assert done.returncode in (0, 3), f"{command}: {done.returncode} {done.stderr[-3000:]}"
        served = list(server.requests)
    assert len(served) >= 4 + 4 + 1
    assert {request.api_key for request in served} == {KEY}  # the workers had it: from the command, in memory
    assert files_holding(cluster.folder, KEY.encode()) == []


def test_a_caller_that_stops_reading_cancels_no_task(engine: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C (or an error) while a map runs: no `ray.cancel`, which races a task that is finishing and ended the
    command with Ray's own check failure (`task_manager.cc ... Check failed`) instead of `recordlens: interrupted`;
    the tasks left end with the job."""
    import ray

    cancelled: list[object] = []
    monkeypatch.setattr(ray, "cancel", lambda ref, **options: cancelled.append(ref))
    results = engine.map(ray_units.slow_square, list(range(8)))  # type: ignore[attr-defined]
    assert next(results)[1] in {n * n for n in range(8)}
    results.close()  # as a KeyboardInterrupt in the caller's loop closes it
    assert cancelled == []


def test_bench_on_ray_stops_a_method_whose_endpoint_fails_page_after_page(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """As locally: after 3 pages in a row (as they finish) the method is asked no more, the other methods go on,
    and bench exits 4; on Ray the pages in flight then also fail (at most 2 × workers)."""
    data = small_copy(tmp_path / "data", 16)
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=status(403, "PERMISSION_DENIED")) as server:  # refused for good, at the first try
        code = main(["bench", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--methods", "gemini:flat,mdr",
                     "--base-url", server.url, "--no-chart", "--json", "-q", "--engine", "ray"])
        asked = len(server.requests)
    out, err = capsys.readouterr()
    assert code == 4, err
    rows = {row["method"]: row for row in json.loads(out)["table2"]}
    assert "the model endpoint failed on 3 pages in a row" in rows["gemini"]["stopped"]
    assert "check the endpoint (--base-url, the network)" in rows["gemini"]["stopped"]
    assert 3 <= rows["gemini"]["failed_pages"] == asked <= 3 + 4  # the row, and the pages in flight then
    assert rows["gemini"]["not_reached_pages"] == 16 - asked
    assert (rows["mdr"]["failed_pages"], rows["mdr"]["not_reached_pages"], rows["mdr"]["stopped"]) == (0, 0, None)
    # the pages gemini never reached are left out of every row: mdr's is on the pages gemini was asked on
    assert rows["mdr"]["pages"] == rows["gemini"]["pages"] == asked


def test_agent_run_on_ray_stops_on_a_failing_model_endpoint_as_locally(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The first episode cut by the endpoint stops the run (no episode starts after it), which fails with exit 4
    and says how to resume it, as the local loop does; the episodes in flight then are kept."""
    from recordlens.core.resource_files import resource_path

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    site, tasks = resource_path("agent", "demo-site"), resource_path("agent", "demo-tasks.jsonl")
    count = len(tasks.read_text("utf-8").splitlines())
    with FakeGemini(default=status(403, "PERMISSION_DENIED")) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "project"), "--site", str(site), "--tasks",
                     str(tasks), "--browser", "text", "--base-url", server.url, "--step-budget", "3",
                     "--engine", "ray"])
        asked = len(server.requests)
    err = capsys.readouterr().err
    assert code == 4, err
    assert "recordlens: error: agent run 1 failed: the model endpoint failed in run 0, task " in err
    assert "--resume 1" in err
    assert asked <= 2 * 2 + 1 < count  # the episodes in flight when the first was cut, not every episode


def test_a_cluster_whose_head_dies_is_said_in_seconds_and_the_same_command_resumes_on_a_new_one(
        tmp_path: Path) -> None:
    """The head's GCS and raylet killed mid-run: within seconds (not after Ray's 60 s reconnection timeout, which
    ends the process from C++ with exit 1 and Ray's lines only) one RecordLens line says the cluster was lost and
    what to do, the command exits 4 (as on a failed model endpoint: stopped early, to be run again), and the pages
    written are kept; the same command on a new cluster does the rest only."""
    require_ray()
    lost = extract_on_a_cluster_lost_part_way(tmp_path, ray_cluster, kill_head)
    assert_said_lost_and_resumed(lost)
    assert (f"recordlens: error: the Ray cluster at {lost.address} was lost (its head no longer answers); "
            in lost.err), lost.err[-3000:]
    assert "run the same command again once the cluster is back to go on (or drop --ray-address" in lost.err
