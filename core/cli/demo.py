"""`recordlens demo`: measure the offline methods on the demo pages the project ships (no data, key or display
needed), so a fresh checkout shows what RecordLens does in a few seconds."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..command_hints import hint_path
from ..extract import DEFAULT_METHOD, available
from ..output_paths import is_chart, writable_file
from ..resource_files import resource_path
from ..runs import bench

OFFLINE_METHODS = ("mdr",)


def demo_dataset() -> Path:
    return resource_path("demo", "dataset")


def demo_synthetic() -> Path:
    """Synthetic variants of the demo pages (`recordlens synth`), labels included."""
    return resource_path("demo", "synthetic")


def cmd_demo(args: argparse.Namespace) -> int:
    if args.chart:
        writable_file(args.chart, "a chart", replaces=is_chart)
    dataset = demo_dataset()
    registered = {name for name, _ in available()}
    methods = [m for m in dict.fromkeys((*OFFLINE_METHODS, DEFAULT_METHOD)) if m in registered]
    specs = [bench.MethodSpec(m) for m in methods]
    result = bench.run_bench(dataset / "html", dataset / "gt", specs)
    print(f"RecordLens demo: {len(result.method_rows[0].scores.pages)} pages written by the project "
          f"({hint_path(dataset)})\n")
    print(bench.format_tables(result))
    variants = demo_synthetic()
    if (variants / "gt").is_dir():
        synthetic = bench.run_bench(variants / "html", variants / "gt", specs)
        print(f"\nThe same methods on {len(synthetic.method_rows[0].scores.pages)} synthetic variants of those "
              f"pages ({hint_path(variants)}):\n")
        print(bench.format_tables(synthetic).split("\n\n", 1)[1])
    if args.chart:
        bench.write_chart(result, args.chart)
        print(f"\nwrote {hint_path(args.chart)}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="measure the offline extractors on the demo pages the project ships")
    p.add_argument("--chart", help="also write a PNG bar chart here")
    p.set_defaults(handler=cmd_demo)
