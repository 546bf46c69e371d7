"""Wall time of `extract` + `score` on the local engine and on Ray (`--workers N`, a local instance) over the
same pages in one run, the speed-up, Ray's start-up cost, and the run size from which Ray pays off here.

Methods: `repeats` and `mdr` (CPU-bound: Ray can only help as far as there are idle cores), and `gemini`
against the loopback fake server (tests/fake_gemini.py) answering each request after `--latency` seconds, as
a stand-in for a real model's wait (I/O-bound: workers overlap their waits). Each method's runs are checked to
give identical N.json files and identical figures (else this exits 1). The machine's load average is printed:
on a shared machine the figures move with what else runs.

Usage: python bench/engine.py [DATASET_DIR ...] [--workers N] [--methods repeats,mdr,gemini] [--latency S]"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: tests.fake_gemini

from dev_data import DATA, DEVELOPMENT  # noqa: E402

from recordlens.core.extract import create  # noqa: E402 - after the path it needs
from recordlens.core.runs.engines import LocalEngine  # noqa: E402
from recordlens.core.runs.evaluate import score_run  # noqa: E402
from recordlens.core.runs.runner import run_extractor  # noqa: E402

DEFAULT_DATASETS = tuple(DATA / s for s in DEVELOPMENT)


def one_engine(engine: object, method: str, datasets: list[Path], out: Path,
               gemini_url: str | None = None) -> tuple[float, list[object]]:
    """Seconds to extract and score every dataset on `engine`, and the figures (for the identity check)."""
    figures: list[object] = []
    start = time.perf_counter()
    for dataset in datasets:
        run = out / dataset.name
        extractor = create("gemini", base_url=gemini_url, backoff_s=0.01) if method == "gemini" else create(method)
        summary = run_extractor(extractor, dataset / "html", run, engine=engine)  # type: ignore[arg-type]
        if summary.failed:
            raise SystemExit(f"{method} failed on {summary.failed}")
        scores, _ = score_run(run, dataset / "gt", dataset / "html", engine=engine)  # type: ignore[arg-type]
        figures.append(scores.as_dict())
    return time.perf_counter() - start, figures


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.relative_to(a) for p in a.rglob("*.json") if "_run" not in p.parts)
    return names == sorted(p.relative_to(b) for p in b.rglob("*.json") if "_run" not in p.parts) and all(
        (a / n).read_bytes() == (b / n).read_bytes() for n in names)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("datasets", nargs="*", default=[str(d) for d in DEFAULT_DATASETS],
                        help="dataset folders (html/N.html + gt/N.json); default: the 80 development pages")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--methods", default="repeats,mdr,gemini")
    parser.add_argument("--latency", type=float, default=0.25, help="seconds the fake Gemini takes per answer")
    args = parser.parse_args()
    datasets = [Path(d) for d in args.datasets]
    missing = [str(d) for d in datasets if not (d / "html").is_dir()]
    if missing:
        print(f"no pages in {', '.join(missing)}", file=sys.stderr)
        return 1
    pages = sum(len(list((d / "html").glob("*.htm*"))) for d in datasets)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ["GEMINI_API_KEY"] = "bench-fake-key"  # only the loopback fake server ever sees it
    from recordlens.core.runs.ray_engine import RayEngine
    from tests.fake_gemini import FakeGemini, answer_with

    def slow_answer(body: dict[str, object]) -> str:
        time.sleep(args.latency)  # the server is threaded: concurrent requests wait side by side
        return '[["/body[1]"]]'

    print(f"{pages} pages in {len(datasets)} dataset(s); {os.cpu_count()} CPUs; "
          f"load average before {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    ray_engine = RayEngine.connect(workers=args.workers)
    started = time.perf_counter() - start
    start = time.perf_counter()
    list(ray_engine.map(_warm_up, list(range(2 * args.workers))))  # workers are spawned on the first tasks
    warmed = time.perf_counter() - start
    print(f"Ray start-up: ray.init {started:.2f} s + first tasks (workers spawned, RecordLens imported) "
          f"{warmed:.2f} s = {started + warmed:.2f} s")
    ok = True
    print(f"{'method':<24} {'local s':>8} {'ray s':>8} {'speed-up':>9} {'with start-up':>14} {'break-even':>11}")
    try:
        for method in args.methods.split(","):
            with tempfile.TemporaryDirectory() as folder, FakeGemini(default=answer_with(slow_answer)) as server:
                out = Path(folder)
                local_s, local_figures = one_engine(LocalEngine(), method, datasets, out / "local", server.url)
                ray_s, ray_figures = one_engine(ray_engine, method, datasets, out / "ray", server.url)
                identical = local_figures == ray_figures and same_files(out / "local", out / "ray")
            ok &= identical
            with_startup = local_s / (ray_s + started + warmed)
            saved_per_page = (local_s - ray_s) / pages
            # Pages of this kind from which the time Ray saves covers its start-up.
            break_even = f"{(started + warmed) / saved_per_page:,.0f} pages" if saved_per_page > 0 else "never"
            label = f"gemini ({args.latency:g} s/answer)" if method == "gemini" else method
            print(f"{label:<24} {local_s:8.2f} {ray_s:8.2f} {local_s / ray_s:8.2f}x {with_startup:13.2f}x "
                  f"{break_even:>11}{'' if identical else '  FILES OR FIGURES DIFFER'}")
    finally:
        start = time.perf_counter()
        ray_engine.close()
        print(f"Ray shutdown {time.perf_counter() - start:.2f} s; load average after {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


def _warm_up(index: int) -> int:
    import recordlens.core.runs.runner  # noqa: F401 - what every real task imports first

    return index


if __name__ == "__main__":
    sys.exit(main())
