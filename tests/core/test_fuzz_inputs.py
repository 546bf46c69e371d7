"""Bad input never crashes the core engine and never loses data silently (DESIGN.md, "Quality bars").

Several hundred mutated inputs (see `fuzz_inputs.py`: truncated and mis-encoded HTML and MHTML, binary junk,
10,000-deep nesting, a 50 MB text node, markup soup, unpaired surrogates, broken records files) go through the
whole pipeline: `read_snapshot` -> `parse_html` -> every format of `represent.FORMATS` -> `score_page` on valid
and dangling XPaths; and through `recordlens inspect` on a file. Each ends, within a generous hang guard, either in a
`RecordLensError` whose message names the input, or in a page for which every invariant holds.

Run with RECORDLENS_FUZZ_TIMINGS=1 to print the slowest stages at the end.
"""

from __future__ import annotations

import json
import math
import os
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.page import formats as represent
from recordlens.core.page.dom import Page, parse_html
from recordlens.core.page.snapshot import read_snapshot
from recordlens.core.records.model import TextKeyIndex, load_records
from recordlens.core.records.score import score_page

from .fuzz_inputs import (
    RECORDS_FILES,
    Case,
    Expect,
    FuzzInput,
    all_cases,
    build,
    release,
    rng_for,
    seed_text_map,
)

# A hang guard per input, not a speed target (speed is bench/'s job): the 50 MB text node needs about 9 s of
# work alone on a 2-core machine, so a limit near that fails at random on a busy one. Room of 10x still ends a
# real hang (or quadratic blow-up) long before CI's own limit.
TIME_LIMIT = 90
MEMORY_HEADROOM = 6 * 1024**3  # an input may not make the test process grow by more than this

CASES = all_cases()

# The 50 MB text node comes as HTML and as MHTML, both read to the very same HTML: the page parsed from it and
# checked (most of a 50 MB case's time) is kept, and the other case, finding that HTML again, checks its reading
# (the read, the text kept whole) on that page instead of parsing and checking the same HTML a second time.
_CHECKED_BIG: dict[str, Page] = {}

# Known failures, with a minimal reproducer in the reason. Strict: a fix shows up as an XPASS, and the entry is
# then removed from here. (The first run found six, all fixed since: processing instructions, recursion in the
# hierarchical JSON, quadratic XPaths on deep pages, tag names ending in ']', deeply nested N.json, and an MHTML
# whose page part was lost being read from its frame without a warning.)
KNOWN_PIPELINE: dict[str, str] = {}
KNOWN_CLI: dict[str, str] = {}
KNOWN_RECORDS: dict[str, str] = {}


def params(cases: list[Case], known: dict[str, str]) -> list[object]:
    return [
        pytest.param(c, id=c.id, marks=pytest.mark.xfail(strict=True, reason=known[c.id])) if c.id in known
        else pytest.param(c, id=c.id)
        for c in cases
    ]


# ---------------------------------------------------------------------------------------------------------------
# Guards: a memory cap per input, and stage timings


_TIMINGS: list[tuple[float, str, str]] = []


@contextmanager
def stage(case_id: str, name: str) -> Iterator[None]:
    """Time a stage; turn any exception that is not a RecordLensError into a failure naming the stage."""
    start = time.perf_counter()
    try:
        yield
    except (RecordLensError, AssertionError):
        raise
    except Exception as error:
        pytest.fail(f"{case_id}: stage {name} raised {type(error).__name__}: {str(error)[:300]}")
    finally:
        _TIMINGS.append((time.perf_counter() - start, case_id, name))


def _virtual_memory() -> int:
    """The process's address-space size in bytes (0 where /proc is not available: then there is no cap)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@pytest.fixture(autouse=True)
def memory_cap() -> Iterator[None]:
    """Cap the address space, so that an input that needs tens of GB fails with MemoryError, not the machine."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    current = _virtual_memory()
    if not current:
        yield
        return
    cap = current + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture(scope="module", autouse=True)
def report_timings(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    release()
    _CHECKED_BIG.clear()
    if not os.environ.get("RECORDLENS_FUZZ_TIMINGS"):
        return
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_line("slowest fuzz stages:")
        for seconds, case_id, name in sorted(_TIMINGS, reverse=True)[:25]:
            reporter.write_line(f"  {seconds:7.3f} s  {name:<12} {case_id}")


@pytest.fixture
def fuzz(case: Case, request: pytest.FixtureRequest) -> FuzzInput:
    """The input, made before the timed test body (the 50 MB inputs are made once and kept)."""
    dev_dir: Path | None = request.getfixturevalue("dev_dir") if case.needs_dev_data else None
    with stage(case.id, "build"):
        return build(case, dev_dir)


# ---------------------------------------------------------------------------------------------------------------
# Checks


def assert_clear_error(error: RecordLensError, label: str) -> None:
    message = str(error)
    assert message.strip(), f"{type(error).__name__} with an empty message"
    assert len(message) < 1000 + len(label), f"the message repeats the input: {message[:300]}..."
    assert label in message, f"the message does not name the input {label!r}: {message}"
    assert "Traceback" not in message and 'File "' not in message, f"a traceback in the message: {message}"


def assert_loss_is_stated(data: bytes, html: str, warnings: list[str]) -> None:
    """Bytes replaced with U+FFFD while decoding are lost: a warning must say so."""
    if "\ufffd" in html and "\ufffd".encode() not in data:
        assert warnings, "bytes became U+FFFD without a warning"


def string_leaves(tree: object) -> int:
    """How many strings a decoded JSON document holds as values (iteratively: it may be deep)."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, str):
            count += 1
    return count


DANGLING = ["/html/body/div[99999]", "//div", "/body[1]/p[0]", "not an xpath", "/nosuch[1]", "/html[1]/body[1]]"]


def check_page(case: Case, page: Page) -> None:
    """The invariants of a page that was read: keys resolve, formats are lossless where promised, scores sane."""
    text_map = page.text_map
    with stage(case.id, "resolve"):
        for key in text_map:
            element = page.resolve(key)
            assert element is not None and element.key == key, f"text-map key {key[:200]!r} does not resolve"
        for xpath in DANGLING:
            assert page.resolve(xpath) is None, f"{xpath!r} resolves"
    outputs: dict[str, str] = {}
    for fmt in represent.FORMATS:
        with stage(case.id, fmt):
            outputs[fmt] = represent.represent(page, fmt)
            assert isinstance(outputs[fmt], str)
    with stage(case.id, "round-trip"):
        assert represent.parse_outline(outputs["outline"]) == text_map, "the outline does not read back"
        assert json.loads(outputs["flat"]) == text_map, "flat JSON does not read back"
        assert string_leaves(json.loads(outputs["hier"])) == len(text_map), "hierarchical JSON lost entries"
        assert isinstance(json.loads(outputs["hier-ref"]), dict)
    with stage(case.id, "score"):
        check_scores(case, page)


def check_scores(case: Case, page: Page) -> None:
    rng = rng_for(case)
    keys = list(page.text_map)
    xpaths = page.element_xpaths()
    valid = [rng.sample(keys, min(3, len(keys))), rng.sample(xpaths, min(2, len(xpaths))), ["/html[1]/body[1]"]]
    records = [*valid, DANGLING[:3], [*rng.sample(keys, min(1, len(keys))), DANGLING[4]]]
    index = TextKeyIndex(page.text_map)
    same = score_page(records, records, index, page=case.id)
    assert same.precision == same.recall == same.f1 == 1.0, f"a run scored against itself: {same}"
    assert same.hallucinated_records >= 1  # the all-dangling record expands to nothing
    for predicted, true in ((records[:2], records), (records, records[2:]), ([DANGLING], valid), ([], records)):
        score = score_page(predicted, true, index, page=case.id)
        for value in (score.precision, score.recall, score.f1):
            assert 0.0 <= value <= 1.0 and not math.isnan(value), f"a score out of [0, 1]: {score}"


# ---------------------------------------------------------------------------------------------------------------
# The tests


@pytest.mark.timeout(TIME_LIMIT, func_only=True)
@pytest.mark.parametrize("case", params(CASES, KNOWN_PIPELINE))
def test_pipeline(case: Case, fuzz: FuzzInput) -> None:
    label = f"fuzz-{case.id}{fuzz.suffix}"
    if isinstance(fuzz.data, str):
        html, warnings = fuzz.data, []
    else:
        try:
            with stage(case.id, "read"):
                snapshot = read_snapshot(fuzz.data, name=label)
        except RecordLensError as error:
            assert_clear_error(error, label)
            assert fuzz.expect is not Expect.EXACT, f"a readable input was refused: {error}"
            return
        assert fuzz.expect is not Expect.ERROR, "a broken input was read without an error"
        html, warnings = snapshot.html, snapshot.warnings
        assert_loss_is_stated(fuzz.data, html, warnings)
    checked = _CHECKED_BIG.pop(html, None) if fuzz.must_keep is not None else None  # used once, then freed
    if checked is not None:
        page = checked
    else:
        try:
            with stage(case.id, "parse"):
                page = parse_html(html)
        except RecordLensError as error:
            # parse_html is given text, not a file: it cannot name the input (load_page adds the file's name).
            assert str(error).strip() and "Traceback" not in str(error), str(error)
            assert len(str(error)) < 1000, "an error message repeats the input"
            return
    if fuzz.expect in (Expect.EXACT, Expect.INTACT, Expect.STATED):
        assert fuzz.seed_html is not None
        same = page.text_map == seed_text_map(fuzz.seed_html)
        assert same or (fuzz.expect is Expect.STATED and warnings), f"text lost or changed, warnings: {warnings}"
    if fuzz.must_keep is not None:
        key, text = fuzz.must_keep
        assert page.text_map.get(key) == text, f"the text at {key} was not kept whole"
    if checked is None:
        check_page(case, page)
        if fuzz.must_keep is not None:
            _CHECKED_BIG.clear()
            _CHECKED_BIG[html] = page


@pytest.mark.timeout(TIME_LIMIT, func_only=True)
@pytest.mark.parametrize("case", params(CASES, KNOWN_CLI))
def test_cli_inspect(case: Case, fuzz: FuzzInput, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = fuzz.data if isinstance(fuzz.data, bytes) else fuzz.data.encode("utf-8", "surrogatepass")
    path = tmp_path / f"fuzz-{case.id}{fuzz.suffix}"
    path.write_bytes(data)
    with stage(case.id, "cli"):
        code = main(["inspect", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 2), f"exit code {code}: {err[-500:]}"
    assert "Traceback" not in err
    if code == 2:
        assert err.startswith("recordlens: error: "), err[:500]
        assert str(path) in err, f"the error does not name the file: {err[:500]}"
        assert fuzz.expect is not Expect.EXACT, f"a readable input was refused: {err[:500]}"
    else:
        assert fuzz.expect is not Expect.ERROR, "a broken input was read without an error"
        assert "text entries" in out


@pytest.mark.timeout(TIME_LIMIT)
@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_RECORDS[n])) if n in KNOWN_RECORDS else n
    for n in RECORDS_FILES
])
def test_records_file(name: str, tmp_path: Path) -> None:
    """A broken N.json (a run's output, a model's answer) is a clear DatasetError or records that score sanely."""
    case = Case(f"records-{name}", None, "records", name)
    path = tmp_path / f"{name}.json"
    path.write_bytes(RECORDS_FILES[name](rng_for(case)))
    try:
        with stage(case.id, "load"):
            loaded = load_records(path)
    except RecordLensError as error:
        assert_clear_error(error, str(path))
        assert name != "valid", str(error)
        return
    page = parse_html("<html><body><div><p>a</p><p>b</p></div><div><p>c</p><p>d</p></div></body></html>")
    index = TextKeyIndex(page.text_map)
    true = [["/html/body/div[1]"], ["/html/body/div[2]/p[1]", "/html/body/div[2]/p[2]"]]
    with stage(case.id, "score"):
        pairs = [(loaded.records, true), (true, loaded.records)]
        if len(loaded.records) <= 500:  # the assignment is O(m * n) Jaccard overlaps
            pairs.append((loaded.records, loaded.records))
        for predicted, truth in pairs:
            score = score_page(predicted, truth, index, page=name)
            for value in (score.precision, score.recall, score.f1):
                assert 0.0 <= value <= 1.0 and not math.isnan(value), f"a score out of [0, 1]: {score}"


def test_enough_inputs() -> None:
    """The issue asks for at least 200 mutated inputs."""
    assert len(CASES) + len(RECORDS_FILES) >= 200
